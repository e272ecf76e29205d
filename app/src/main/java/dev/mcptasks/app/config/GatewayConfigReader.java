package dev.mcptasks.app.config;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reads the {@code gateway} object. Tokens take {@code ${env:NAME}} and never reach a message. Every problem is one
 * {@link ConfigException} naming the key.
 */
final class GatewayConfigReader {
    private static final Set<String> KEYS = Set.of("host", "port", "principals", "allowedOrigins", "allowedHosts",
            "maxRequestBytes", "expose", "localPrincipal", "requestTimeoutSeconds", "maxConnections",
            "maxSessionsPerPrincipal", "quotas", "toolNames", "serveUnprefixed", "handoffSeconds");
    private static final Set<String> QUOTA_KEYS = Set.of("concurrentTasks", "callsPerMinute");
    private static final Set<String> EXPOSE_KEYS = Set.of("tools");
    /** A shorter bearer token is guessable; 16 characters of base64 are 96 bits. */
    static final int MIN_TOKEN_LENGTH = 16;
    private static final String NAME = "[A-Za-z0-9._@-]{1,64}";

    private final EnvSubstitution substitution;

    GatewayConfigReader(EnvSubstitution substitution) {
        this.substitution = substitution;
    }

    GatewayConfig read(JsonSection gateway, Set<String> servers) {
        gateway.requireOnly(KEYS);
        GatewayConfig defaults = GatewayConfig.defaults(servers);
        String host = gateway.has("host") ? gateway.requiredString("host").trim() : defaults.host();
        if (host.isEmpty()) {
            throw new ConfigException(gateway.path("host"), gateway.path("host") + " must not be empty");
        }
        int port = gateway.intIn("port", defaults.port(), 0, 65_535);
        Map<String, String> tokens = tokens(gateway);
        if (tokens.isEmpty() && !GatewayConfig.isLoopback(host)) {
            // without tokens anyone who reaches the port is the one local principal: only this machine may
            throw new ConfigException(gateway.path("principals"), gateway.path("host") + " is '" + host
                    + "', not a loopback address: configure " + gateway.path("principals")
                    + " (bearer tokens) to listen beyond this machine");
        }
        String localPrincipal = gateway.has("localPrincipal") ? name(gateway, "localPrincipal",
                gateway.requiredString("localPrincipal")) : defaults.localPrincipal();
        Map<String, GatewayConfig.Exposure> exposed = gateway.has("expose")
                ? exposed(gateway.section("expose"), servers) : defaults.exposed();
        return new GatewayConfig(host, port, tokens, gateway.stringList("allowedOrigins"),
                gateway.stringList("allowedHosts"),
                gateway.intIn("maxRequestBytes", defaults.maxRequestBytes(), 1024, 64 * 1024 * 1024),
                exposed, localPrincipal, new GatewayConfig.Limits(
                        gateway.intIn("requestTimeoutSeconds", defaults.limits().requestTimeoutSeconds(), 1, 3600),
                        gateway.intIn("maxConnections", defaults.limits().maxConnections(), 1, 1_000_000),
                        gateway.intIn("maxSessionsPerPrincipal", defaults.limits().maxSessionsPerPrincipal(), 1,
                                1_000_000),
                        gateway.has("quotas") ? quota(gateway.section("quotas"), true) : GatewayConfig.Quota.NONE,
                        gateway.has("quotas") ? principalQuotas(gateway.section("quotas")) : Map.of()),
                unprefixed(gateway, exposed), gateway.intIn("handoffSeconds", 0, 0, 86_400));
    }

    /**
     * {@code serveUnprefixed: true}, or its equivalent {@code toolNames: "plain"} ({@code "prefixed"}, the
     * default, is {@code false}): the one exposed server's tools and prompts under their own names. Refused unless
     * exactly one server is exposed.
     */
    private static boolean unprefixed(JsonSection gateway, Map<String, GatewayConfig.Exposure> exposed) {
        String key = "serveUnprefixed";
        boolean unprefixed = gateway.bool(key, false);
        if (gateway.has("toolNames")) {
            String names = gateway.requiredString("toolNames");
            if (!"prefixed".equals(names) && !"plain".equals(names)) {
                throw new ConfigException(gateway.path("toolNames"), gateway.path("toolNames")
                        + " must be \"prefixed\" or \"plain\"");
            }
            if ("plain".equals(names)) {
                key = "toolNames";
                unprefixed = true;
            }
        }
        if (unprefixed && exposed.size() != 1) {
            String what = "toolNames".equals(key) ? gateway.path(key) + " \"plain\"" : gateway.path(key) + " true";
            throw new ConfigException(gateway.path(key), what + " needs exactly one exposed server (two servers'"
                    + " tool and prompt names could collide), not " + exposed.size() + ": name one in "
                    + gateway.path("expose"));
        }
        return unprefixed;
    }

    /** {@code quotas} (with its {@code principals} member when {@code top}) or one principal's quota. */
    private static GatewayConfig.Quota quota(JsonSection section, boolean top) {
        if (top) {
            Set<String> keys = new HashSet<>(QUOTA_KEYS);
            keys.add("principals");
            section.requireOnly(keys);
        } else {
            section.requireOnly(QUOTA_KEYS);
        }
        return new GatewayConfig.Quota(
                section.has("concurrentTasks") ? section.intIn("concurrentTasks", 1, 1, 1_000_000) : null,
                section.has("callsPerMinute") ? section.intIn("callsPerMinute", 1, 1, 1_000_000) : null);
    }

    private static Map<String, GatewayConfig.Quota> principalQuotas(JsonSection quotas) {
        if (!quotas.has("principals")) {
            return Map.of();
        }
        Map<String, GatewayConfig.Quota> byPrincipal = new LinkedHashMap<>();
        quotas.section("principals").members().forEach((principal, section) -> byPrincipal.put(principal,
                quota(section, false)));
        return byPrincipal;
    }

    /** {@code principals}: principal name to its token. */
    private Map<String, String> tokens(JsonSection gateway) {
        Map<String, String> raw = gateway.stringMap("principals");
        Map<String, String> byPrincipal = new LinkedHashMap<>();
        Map<String, String> principalByToken = new HashMap<>();
        raw.forEach((principal, value) -> {
            String key = gateway.path("principals") + "." + principal;
            name(gateway, "principals", principal);
            String token = substitution.resolve(key, value);
            if (token.length() < MIN_TOKEN_LENGTH || token.chars().anyMatch(c -> c <= ' ' || c > '~')) {
                throw new ConfigException(key, key + ": the token must be at least " + MIN_TOKEN_LENGTH
                        + " printable ASCII characters without spaces (e.g. openssl rand -base64 32)");
            }
            String other = principalByToken.putIfAbsent(token, principal);
            if (other != null) {
                throw new ConfigException(key, key + " has the same token as principal '" + other + "'");
            }
            byPrincipal.put(principal, token);
        });
        return byPrincipal;
    }

    private static Map<String, GatewayConfig.Exposure> exposed(JsonSection expose, Set<String> servers) {
        Map<String, GatewayConfig.Exposure> exposed = new LinkedHashMap<>();
        expose.members().forEach((server, section) -> {
            if (!servers.contains(server)) {
                throw new ConfigException(expose.path(server), expose.path(server) + ": no server '" + server
                        + "' in mcpServers (configured: " + String.join(", ", servers) + ")");
            }
            section.requireOnly(EXPOSE_KEYS);
            // "tools": [] exposes no tool (an allow-list never fails open); no "tools" key exposes every tool
            exposed.put(server, section.has("tools")
                    ? GatewayConfig.Exposure.only(new LinkedHashSet<>(section.stringList("tools")))
                    : GatewayConfig.Exposure.EVERY_TOOL);
        });
        return exposed;
    }

    private static String name(JsonSection gateway, String key, String value) {
        if (!value.matches(NAME)) {
            throw new ConfigException(gateway.path(key), gateway.path(key) + ": '" + value
                    + "' is not a principal name (1 to 64 of A-Z a-z 0-9 . _ @ -)");
        }
        return value;
    }
}
