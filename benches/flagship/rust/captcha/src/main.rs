// CAPTCHA endpoint: /captcha answers a fresh 160x60 PNG of five jittered glyphs over speckled noise.
use std::io::Cursor;
use std::sync::Arc;

use ab_glyph::{Font, FontVec, PxScale, ScaleFont};
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use image::{ImageFormat, Rgba, RgbaImage};

const CHARS: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const CODE_LEN: usize = 5;
const FONT: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

fn random_code(n: usize) -> String {
    (0..n)
        .map(|_| CHARS[fastrand::usize(..CHARS.len())] as char)
        .collect()
}

async fn captcha(State(font): State<Arc<FontVec>>) -> impl IntoResponse {
    let code = random_code(CODE_LEN);
    let mut canvas = RgbaImage::from_pixel(160, 60, Rgba([0xee, 0xf1, 0xf5, 255]));
    for _ in 0..40 {
        let shade = 180 + fastrand::u8(..40);
        canvas.put_pixel(
            fastrand::u32(..160),
            fastrand::u32(..60),
            Rgba([shade, shade, shade, 255]),
        );
    }
    let em = font.units_per_em().unwrap_or(1.0);
    let scale = PxScale::from(28.0 * font.height_unscaled() / em); // a 28 px em, as CSS 'bold 28px'
    let ascent = font.as_scaled(scale).ascent();
    for (i, ch) in code.chars().enumerate() {
        let y = 40 + ((fastrand::f64() - 0.5) * 12.0).round() as i32;
        let top = y - ascent.round() as i32;
        let ink = Rgba([0x2b, 0x35, 0x42, 255]);
        imageproc::drawing::draw_text_mut(
            &mut canvas,
            ink,
            15 + i as i32 * 26,
            top,
            scale,
            &*font,
            &ch.to_string(),
        );
    }
    let mut png = Vec::new();
    canvas
        .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
        .unwrap();
    ([(header::CONTENT_TYPE, "image/png")], png)
}

#[tokio::main]
async fn main() {
    let port = std::env::var("PORT").unwrap_or_else(|_| "8080".into());
    let font = FontVec::try_from_vec(std::fs::read(FONT).expect(FONT)).unwrap();
    let app = axum::Router::new()
        .route("/captcha", get(captcha))
        .fallback(|| async {})
        .with_state(Arc::new(font));
    let listener = tokio::net::TcpListener::bind(format!("127.0.0.1:{port}"))
        .await
        .unwrap();
    axum::serve(listener, app).await.unwrap();
}
