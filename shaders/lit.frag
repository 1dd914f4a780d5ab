#version 330
// Lambert + soft specular key light with PCF shadows, hemispheric ambient, texture and a selection highlight.
uniform struct p3d_LightSourceParameters {
    vec4 color;
    vec4 position;
    sampler2DShadow shadowMap;
    mat4 shadowViewMatrix;
} p3d_LightSource[1];
uniform struct p3d_LightModelParameters { vec4 ambient; } p3d_LightModel;
uniform sampler2D p3d_Texture0;
uniform vec4 p3d_ColorScale;
uniform vec4 highlight;      // rgb glow colour, a = strength (0 = none): a rim light when lit, a tint when unlit
uniform float shadow_on;     // 0 disables shadow lookups (e.g. for unlit overlays)
uniform float unlit;         // 1 draws flat colour (text, HUD-in-world)

in vec3 v_normal;
in vec3 v_view_pos;
in vec4 v_color;
in vec2 v_uv;
in vec4 v_shadow;

out vec4 frag;

void main() {
    vec4 base = v_color * texture(p3d_Texture0, v_uv) * p3d_ColorScale;
    if (base.a < 0.02) discard;
    if (unlit > 0.5) {
        frag = vec4(mix(base.rgb, highlight.rgb, highlight.a), base.a);
        return;
    }
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing) n = -n;
    vec3 l = normalize(p3d_LightSource[0].position.xyz);   // directional: position.w == 0, view space
    float diffuse = max(dot(n, l), 0.0);
    float lit = 1.0;
    if (shadow_on > 0.5) {
        vec3 sc = v_shadow.xyz / v_shadow.w;
        // four taps half a texel apart: with the map's linear filtering that is a soft 4x4 PCF at a quarter the cost
        vec2 texel = 0.5 / vec2(textureSize(p3d_LightSource[0].shadowMap, 0));
        // the depth bias shrinks on faces turned to the light (a table top, a domino's face), where acne cannot
        // come, so a shadow starts at the foot of what casts it instead of a few millimetres off (a piece floating)
        float bias = 0.0004 + 0.0011 * (1.0 - diffuse);
        float sum = 0.0;
        sum += texture(p3d_LightSource[0].shadowMap, vec3(sc.xy + vec2(-texel.x, -texel.y), sc.z - bias));
        sum += texture(p3d_LightSource[0].shadowMap, vec3(sc.xy + vec2(texel.x, -texel.y), sc.z - bias));
        sum += texture(p3d_LightSource[0].shadowMap, vec3(sc.xy + vec2(-texel.x, texel.y), sc.z - bias));
        sum += texture(p3d_LightSource[0].shadowMap, vec3(sc.xy + vec2(texel.x, texel.y), sc.z - bias));
        lit = sum * 0.25;
    }
    vec3 v = normalize(-v_view_pos);
    vec3 h = normalize(l + v);
    float spec = pow(max(dot(n, h), 0.0), 40.0) * 0.25 * lit;
    float sky = 0.5 + 0.5 * n.y;  // a little brighter on faces turned up towards the viewer's sky
    vec3 ambient = p3d_LightModel.ambient.rgb * (0.75 + 0.25 * sky);
    vec3 color = base.rgb * (ambient + p3d_LightSource[0].color.rgb * diffuse * lit) + vec3(spec);
    // a selected piece glows along its silhouette and keeps its own colour where it faces the viewer (a tint over
    // the whole piece turns a red piece olive under green)
    float rim = 1.0 - abs(dot(n, v));
    color = mix(color, highlight.rgb, min(0.9, highlight.a * (0.12 + 1.6 * rim * rim * rim)));
    frag = vec4(color, base.a);
}
