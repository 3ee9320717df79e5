//! The page and its assets, embedded in the binary (no files to install, no CDN, no build
//! step): plain HTML, CSS and one JavaScript module. Served with a content security policy
//! that allows nothing from elsewhere.

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::HeaderName;
use axum::response::{IntoResponse, Response};

/// The page.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// The page's script (a JavaScript module).
pub const APP_JS: &str = include_str!("../assets/app.js");
/// The page's style sheet.
pub const STYLE_CSS: &str = include_str!("../assets/style.css");

/// Only this server's own scripts, styles and images; inline SVG from the API is data.
const CSP: &str = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; \
                   script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; \
                   frame-ancestors 'none'";

fn asset(content_type: &'static str, body: &'static str) -> Response {
    let headers: [(HeaderName, &'static str); 4] = [
        (CONTENT_TYPE, content_type),
        (CACHE_CONTROL, "no-cache"),
        (HeaderName::from_static("content-security-policy"), CSP),
        (HeaderName::from_static("x-content-type-options"), "nosniff"),
    ];
    (headers, body).into_response()
}

/// `GET /`.
pub async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

/// `GET /app.js`.
pub async fn script() -> Response {
    asset("text/javascript; charset=utf-8", APP_JS)
}

/// `GET /style.css`.
pub async fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE_CSS)
}
