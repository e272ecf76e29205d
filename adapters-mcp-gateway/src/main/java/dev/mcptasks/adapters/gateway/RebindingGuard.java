package dev.mcptasks.adapters.gateway;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Refuses browser-borne requests that DNS rebinding or a hostile page could send: an {@code Origin} that is not
 * allowed, and, on a loopback bind address, a {@code Host} that is not a loopback name (a rebinding attack reaches
 * 127.0.0.1 under the attacker's host name, which the browser puts in {@code Host}).
 */
final class RebindingGuard {
    private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    private final boolean loopbackBind;
    private final Set<String> allowedOrigins;
    private final Set<String> allowedHosts;

    RebindingGuard(boolean loopbackBind, Set<String> allowedOrigins, Set<String> allowedHosts) {
        this.loopbackBind = loopbackBind;
        this.allowedOrigins = allowedOrigins;
        this.allowedHosts = allowedHosts.stream().map(h -> h.toLowerCase(Locale.ROOT))
                .collect(Collectors.toUnmodifiableSet());
    }

    /** Why the request must be refused (a one-line reason), or empty when it may pass. */
    Optional<String> refusal(String host, String origin) {
        if (loopbackBind || !allowedHosts.isEmpty()) {
            String name = hostName(host);
            boolean known = name != null
                    && (allowedHosts.contains(name) || loopbackBind && LOOPBACK_NAMES.contains(name));
            if (!known) {
                return Optional.of("Forbidden: Host header " + (host == null ? "(missing)" : host) + " is not allowed");
            }
        }
        if (origin != null && !allowedOrigins.contains(origin) && !(loopbackBind && loopbackOrigin(origin))) {
            return Optional.of("Forbidden: Origin " + origin + " is not allowed");
        }
        return Optional.empty();
    }

    /** The lower-case host name of a {@code Host} value without its port ({@code [::1]} keeps its brackets). */
    private static String hostName(String host) {
        if (host == null || host.isBlank()) {
            return null;
        }
        String value = host.trim().toLowerCase(Locale.ROOT);
        if (value.startsWith("[")) {
            int end = value.indexOf(']');
            return end < 0 ? null : value.substring(0, end + 1);
        }
        int colon = value.indexOf(':');
        return colon < 0 ? value : value.substring(0, colon);
    }

    private static boolean loopbackOrigin(String origin) {
        try {
            URI uri = new URI(origin);
            String scheme = uri.getScheme();
            String host = uri.getHost();
            return ("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme)) && host != null
                    && LOOPBACK_NAMES.contains(host.toLowerCase(Locale.ROOT));
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
