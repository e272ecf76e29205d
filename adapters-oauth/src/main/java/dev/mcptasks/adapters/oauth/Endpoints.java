package dev.mcptasks.adapters.oauth;

import java.net.URI;
import java.util.Locale;

/**
 * What an OAuth url must be before a request goes to it or a token is sent there: https, or plain http only on a
 * loopback host (a local test server, the conformance suite), where nobody on the wire can read or change it. A
 * host is loopback only by its literal form ({@code localhost}, {@code 127.x.x.x}, {@code [::1]}); no name is
 * resolved, so a DNS answer cannot make a remote host "local".
 */
final class Endpoints {
    private Endpoints() {}

    /** {@code uri}, or a one-line failure naming {@code what} when it is neither https nor loopback http. */
    static URI requireSecure(URI uri, String what) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("https") || scheme.equals("http") && loopback(uri.getHost())) {
            return uri;
        }
        throw new OAuthFailure("refusing the " + what + " " + OAuthHttp.strip(uri) + ": "
                + (scheme.equals("http") ? "plain http is allowed only on a loopback host" : "not an https url"));
    }

    static boolean loopback(String host) {
        if (host == null) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        return h.equals("localhost") || h.equals("[::1]") || h.equals("::1")
                || h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }

    /**
     * Whether {@code named} is the issuer identifier {@code expected} (RFC 8414 section 3.3: identical). The one
     * difference allowed is a lone trailing slash, "https://as.example" and "https://as.example/" being one url.
     */
    static boolean sameIssuer(String named, URI expected) {
        return named != null && withoutRootSlash(named).equals(withoutRootSlash(expected.toString()));
    }

    private static String withoutRootSlash(String issuer) {
        return issuer.matches("[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]+/") ? issuer.substring(0, issuer.length() - 1)
                : issuer;
    }
}
