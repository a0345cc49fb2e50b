// CAPTCHA endpoint: /captcha answers a fresh 160x60 PNG of five jittered glyphs over speckled noise.
import { createCanvas, GlobalFonts } from "@napi-rs/canvas";

GlobalFonts.registerFromPath("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "DejaVu Sans");
const CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const CODE_LEN = 5;

function randomCode(n) {
  let code = "";
  for (let i = 0; i < n; i++) code += CHARS[Math.floor(Math.random() * CHARS.length)];
  return code;
}

Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT || 8080),
  fetch(req) {
    if (new URL(req.url).pathname !== "/captcha") return new Response();
    const code = randomCode(CODE_LEN);
    const canvas = createCanvas(160, 60);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#eef1f5";
    ctx.fillRect(0, 0, 160, 60);
    for (let i = 0; i < 40; i++) {
      const shade = 180 + Math.floor(Math.random() * 40);
      ctx.fillStyle = `rgb(${shade}, ${shade}, ${shade})`;
      ctx.fillRect(Math.floor(Math.random() * 160), Math.floor(Math.random() * 60), 1, 1);
    }
    ctx.fillStyle = "#2b3542";
    ctx.font = "bold 28px 'DejaVu Sans'";
    for (let i = 0; i < CODE_LEN; i++) {
      const y = 40 + Math.round((Math.random() - 0.5) * 12);
      ctx.fillText(code[i], 15 + i * 26, y);
    }
    return new Response(canvas.toBuffer("image/png"), { headers: { "content-type": "image/png" } });
  },
});
