#version 330
// One directional key light with a shadow map, plus ambient. Panda3D fills the p3d_* inputs.
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 p3d_ModelViewMatrix;
uniform mat3 p3d_NormalMatrix;
uniform struct p3d_LightSourceParameters {
    vec4 color;
    vec4 position;
    sampler2DShadow shadowMap;
    mat4 shadowViewMatrix;
} p3d_LightSource[1];

in vec4 p3d_Vertex;
in vec3 p3d_Normal;
in vec4 p3d_Color;
in vec2 p3d_MultiTexCoord0;

out vec3 v_normal;
out vec3 v_view_pos;
out vec4 v_color;
out vec2 v_uv;
out vec4 v_shadow;

void main() {
    vec4 view_pos = p3d_ModelViewMatrix * p3d_Vertex;
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
    v_view_pos = view_pos.xyz;
    v_normal = normalize(p3d_NormalMatrix * p3d_Normal);
    v_color = p3d_Color;
    v_uv = p3d_MultiTexCoord0;
    v_shadow = p3d_LightSource[0].shadowViewMatrix * view_pos;
}
