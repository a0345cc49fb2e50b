// Reverse proxy: every request is forwarded to UPSTREAM over pooled keep-alive connections.
package main

import (
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
)

func env(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func main() {
	upstream, err := url.Parse(env("UPSTREAM", "http://127.0.0.1:9000"))
	if err != nil {
		panic(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(upstream)
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = 64
	proxy.Transport = transport
	proxy.ErrorHandler = func(w http.ResponseWriter, r *http.Request, err error) {
		w.WriteHeader(http.StatusBadGateway)
		w.Write([]byte("bad gateway: " + err.Error()))
	}
	panic(http.ListenAndServe("127.0.0.1:"+env("PORT", "8080"), proxy))
}
