package dev.mcptasks.http;

import java.net.URI;

/**
 * Where the MCP endpoint lives, split for Netty.
 *
 * @param host the host to connect to
 * @param port the port (default 80/443 filled in)
 * @param tls whether to speak https
 * @param pathAndQuery the request target
 * @param hostHeader the {@code Host} header value
 */
record HttpEndpoint(String host, int port, boolean tls, String pathAndQuery, String hostHeader) {

    static HttpEndpoint of(String serverName, URI url) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("server '" + serverName + "': url must be http or https, got " + url);
        }
        if (url.getHost() == null) {
            throw new IllegalArgumentException("server '" + serverName + "': url has no host: " + url);
        }
        boolean tls = scheme.equals("https");
        int port = url.getPort() > 0 ? url.getPort() : tls ? 443 : 80;
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String target = url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
        String hostHeader = url.getPort() > 0 ? url.getHost() + ":" + url.getPort() : url.getHost();
        return new HttpEndpoint(url.getHost(), port, tls, target, hostHeader);
    }
}
