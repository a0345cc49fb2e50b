// Reverse proxy: every request is forwarded to UPSTREAM over pooled keep-alive connections.
use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

#[derive(Clone)]
struct Proxy {
    client: reqwest::Client,
    upstream: String,
}

async fn forward(State(proxy): State<Proxy>, req: Request) -> Response {
    let url = format!("{}{}", proxy.upstream, req.uri().path());
    let method = req.method().clone();
    let mut headers = req.headers().clone();
    headers.remove(header::HOST);
    let body = match to_bytes(req.into_body(), usize::MAX).await {
        Ok(body) => body,
        Err(e) => return (StatusCode::BAD_REQUEST, e.to_string()).into_response(),
    };
    let sent = proxy
        .client
        .request(method, url)
        .headers(headers)
        .body(body)
        .send();
    let upstream = match sent.await {
        Ok(upstream) => upstream,
        Err(e) => return (StatusCode::BAD_GATEWAY, format!("bad gateway: {e}")).into_response(),
    };
    let status = upstream.status();
    let mut headers = upstream.headers().clone();
    for hop in [
        header::CONNECTION,
        header::TRANSFER_ENCODING,
        header::CONTENT_LENGTH,
    ] {
        headers.remove(hop);
    }
    match upstream.bytes().await {
        Ok(body) => (status, headers, Body::from(body)).into_response(),
        Err(e) => (StatusCode::BAD_GATEWAY, format!("bad gateway: {e}")).into_response(),
    }
}

#[tokio::main]
async fn main() {
    let port = std::env::var("PORT").unwrap_or_else(|_| "8080".into());
    let upstream = std::env::var("UPSTREAM").unwrap_or_else(|_| "http://127.0.0.1:9000".into());
    let proxy = Proxy {
        client: reqwest::Client::new(),
        upstream,
    };
    let app = axum::Router::new().fallback(forward).with_state(proxy);
    let listener = tokio::net::TcpListener::bind(format!("127.0.0.1:{port}"))
        .await
        .unwrap();
    axum::serve(listener, app).await.unwrap();
}
