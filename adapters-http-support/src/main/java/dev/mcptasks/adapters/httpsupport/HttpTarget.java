package dev.mcptasks.adapters.httpsupport;

import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * A server's http(s) url split for Netty. A url the server names later (the legacy transport's POST endpoint) must
 * be of this same origin (scheme, host, port), since the configured headers (credentials) go with every request and
 * one connection pool serves this origin only.
 *
 * @param scheme http or https
 * @param host the host to connect to (lower case)
 * @param port the port (default 80/443 filled in)
 * @param pathAndQuery the request target of the url
 * @param hostHeader the {@code Host} header value
 */
public record HttpTarget(String scheme, String host, int port, String pathAndQuery, String hostHeader) {

    /** Whether {@code url} is an http or https url (scheme in any case), the one thing every HTTP transport takes. */
    public static boolean isHttp(URI url) {
        if (url == null || url.getScheme() == null) {
            return false;
        }
        String scheme = url.getScheme().toLowerCase(Locale.ROOT);
        return scheme.equals("http") || scheme.equals("https");
    }

    /** Splits {@code url}; refuses (naming the server) one that is not http(s) or has no host. */
    public static HttpTarget of(String serverName, URI url) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("server '" + serverName + "': url must be http or https, got " + url);
        }
        if (url.getHost() == null) {
            throw new IllegalArgumentException("server '" + serverName + "': url has no host: " + url);
        }
        int port = url.getPort() > 0 ? url.getPort() : defaultPort(scheme);
        String hostHeader = url.getPort() > 0 ? url.getHost() + ":" + url.getPort() : url.getHost();
        return new HttpTarget(scheme, url.getHost().toLowerCase(Locale.ROOT), port, target(url), hostHeader);
    }

    public boolean tls() {
        return scheme.equals("https");
    }

    /** {@code scheme://host:port}, for messages. */
    public String origin() {
        return scheme + "://" + host + ":" + port;
    }

    /**
     * The request target of the POST endpoint a legacy SSE server named (relative to this url, or absolute).
     * Throws {@link McpTransportException} ({@code CONNECT_FAILED}: nothing was sent) for another origin.
     */
    public String resolve(String serverName, String named) {
        URI resolved;
        try {
            resolved = new URI(scheme, null, host, port, "/", null, null).resolve(new URI(pathAndQuery))
                    .resolve(new URI(named.strip()));
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new McpTransportException(Kind.CONNECT_FAILED, "server '" + serverName + "' named a POST endpoint"
                    + " that is not a valid url: " + abbreviate(named));
        }
        String otherScheme = resolved.getScheme() == null ? "" : resolved.getScheme().toLowerCase(Locale.ROOT);
        String otherHost = resolved.getHost() == null ? "" : resolved.getHost().toLowerCase(Locale.ROOT);
        int otherPort = resolved.getPort() > 0 ? resolved.getPort() : defaultPort(otherScheme);
        if (!otherScheme.equals(scheme) || !otherHost.equals(host) || otherPort != port) {
            throw new McpTransportException(Kind.CONNECT_FAILED, "server '" + serverName + "' named a POST endpoint"
                    + " of another origin (" + otherScheme + "://" + otherHost + ":" + otherPort + ") than its SSE url ("
                    + origin() + "); refused, so that the configured headers go nowhere else");
        }
        return target(resolved);
    }

    private static String target(URI url) {
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        return url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
    }

    private static int defaultPort(String scheme) {
        return scheme.equals("https") ? 443 : scheme.equals("http") ? 80 : -1;
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
