package dev.mcptasks.adapters.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds the authorization server of an MCP endpoint (MCP authorization 2025-11-25, "Authorization Server
 * Discovery"): protected resource metadata (RFC 9728) from the challenge's {@code resource_metadata}, else at the
 * path-based then the root well-known url; then the authorization server's metadata (RFC 8414, OpenID discovery) in
 * the order the spec gives for issuers with and without a path. Without resource metadata (a 2025-03-26 server)
 * the server's own root is the authorization server, and without any metadata its default endpoints are used.
 */
final class Discovery {
    private static final String PRM = "/.well-known/oauth-protected-resource";

    private final OAuthHttp http;

    Discovery(OAuthHttp http) {
        this.http = http;
    }

    /**
     * @param resource the MCP server's resource url (RFC 8707), sent on authorization and token requests
     * @param resourceScopes the resource's {@code scopes_supported}, or empty
     */
    record Discovered(URI resource, List<String> resourceScopes, AuthServerMetadata server) {
    }

    Discovered discover(URI endpoint, Challenge challenge, URI configuredServer) {
        URI canonical = canonical(endpoint);
        ResourceMetadata prm = resourceMetadata(endpoint, challenge);
        URI resource = canonical;
        URI issuer;
        List<String> scopes = List.of();
        if (prm != null) {
            if (!allowed(canonical, prm.resource)) {
                throw new OAuthFailure("the protected resource metadata names resource " + prm.resource
                        + ", which is not " + canonical + ": refusing to authorize for it");
            }
            resource = prm.resource;
            scopes = prm.scopes;
            if (configuredServer == null && prm.servers.isEmpty()) {
                throw new OAuthFailure("the protected resource metadata of " + canonical
                        + " names no authorization_servers");
            }
            issuer = configuredServer != null ? configuredServer : prm.servers.get(0);
        } else {
            issuer = configuredServer != null ? configuredServer
                    : URI.create(endpoint.getScheme() + "://" + endpoint.getRawAuthority());
        }
        // the 2025-03-26 fallback guesses the issuer (the server's root): there the metadata only has to be the
        // server's own origin; a named issuer (resource metadata, configuration) must be matched exactly
        boolean named = prm != null || configuredServer != null;
        return new Discovered(resource, scopes, serverMetadata(Endpoints.requireSecure(issuer,
                "authorization server"), named));
    }

    private record ResourceMetadata(URI resource, List<URI> servers, List<String> scopes) {
    }

    private ResourceMetadata resourceMetadata(URI endpoint, Challenge challenge) {
        List<URI> candidates = new ArrayList<>();
        if (challenge.resourceMetadata() != null) {
            try {
                candidates.add(URI.create(challenge.resourceMetadata()));
            } catch (IllegalArgumentException e) {
                throw new OAuthFailure("the challenge's resource_metadata is not a url: "
                        + challenge.resourceMetadata());
            }
        }
        String path = trimSlash(endpoint.getRawPath());
        URI root = URI.create(endpoint.getScheme() + "://" + endpoint.getRawAuthority());
        if (!path.isEmpty()) {
            candidates.add(root.resolve(PRM + path));
        }
        candidates.add(root.resolve(PRM));
        for (URI candidate : candidates.stream().distinct().toList()) {
            OAuthHttp.Reply reply = http.get(Endpoints.requireSecure(candidate, "protected resource metadata url"));
            if (!reply.ok()) {
                continue;
            }
            JsonNode json = reply.json("the protected resource metadata at " + candidate);
            if (!json.path("resource").isTextual()) {
                throw new OAuthFailure("the protected resource metadata at " + candidate + " has no resource");
            }
            List<URI> servers = new ArrayList<>();
            for (String server : AuthServerMetadata.strings(json, "authorization_servers")) {
                try {
                    servers.add(URI.create(server));
                } catch (IllegalArgumentException e) {
                    throw new OAuthFailure("the protected resource metadata at " + candidate
                            + " names an invalid authorization server: " + server);
                }
            }
            URI resource;
            try {
                resource = URI.create(json.path("resource").asText());
            } catch (IllegalArgumentException e) {
                throw new OAuthFailure("the protected resource metadata at " + candidate
                        + " has an invalid resource: " + json.path("resource").asText());
            }
            return new ResourceMetadata(resource, servers, AuthServerMetadata.strings(json, "scopes_supported"));
        }
        return null;
    }

    private AuthServerMetadata serverMetadata(URI issuer, boolean named) {
        for (URI candidate : serverMetadataUrls(issuer)) {
            OAuthHttp.Reply reply = http.get(candidate);
            if (reply.ok()) {
                AuthServerMetadata metadata = AuthServerMetadata.parse(
                        reply.json("the authorization server metadata at " + candidate), candidate);
                checkIssuer(metadata.issuer(), issuer, named, candidate);
                return metadata;
            }
        }
        return AuthServerMetadata.defaults(issuer);
    }

    /**
     * RFC 8414 section 3.3 (and OpenID discovery 4.3): the metadata's {@code issuer} is the issuer identifier it
     * was fetched for, so that metadata one server publishes cannot send tokens to another's endpoints (mix-up).
     */
    private static void checkIssuer(String named, URI issuer, boolean exact, URI from) {
        if (named == null) {
            throw new OAuthFailure("the authorization server metadata at " + from + " names no issuer (RFC 8414)");
        }
        boolean ok = exact ? Endpoints.sameIssuer(named, issuer) : sameOrigin(named, issuer);
        if (!ok) {
            throw new OAuthFailure("the authorization server metadata at " + from + " names issuer " + named
                    + (exact ? ", not " + issuer : ", which is not at " + issuer) + " (RFC 8414 section 3.3): refusing it");
        }
    }

    private static boolean sameOrigin(String named, URI origin) {
        try {
            URI uri = URI.create(named);
            return origin.getScheme().equalsIgnoreCase(uri.getScheme()) && uri.getRawAuthority() != null
                    && origin.getRawAuthority().equalsIgnoreCase(uri.getRawAuthority());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** RFC 8414 section 3.1 and OpenID discovery, in the order MCP authorization 2025-11-25 gives. */
    static List<URI> serverMetadataUrls(URI issuer) {
        URI root = URI.create(issuer.getScheme() + "://" + issuer.getRawAuthority());
        String path = trimSlash(issuer.getRawPath());
        if (path.isEmpty()) {
            return List.of(root.resolve("/.well-known/oauth-authorization-server"),
                    root.resolve("/.well-known/openid-configuration"));
        }
        return List.of(root.resolve("/.well-known/oauth-authorization-server" + path),
                root.resolve("/.well-known/openid-configuration" + path),
                root.resolve(path + "/.well-known/openid-configuration"));
    }

    /** The canonical MCP url (MCP authorization, "Canonical Server URI"): lower-case scheme and host, no fragment. */
    static URI canonical(URI endpoint) {
        String path = endpoint.getRawPath() == null ? "" : endpoint.getRawPath();
        String query = endpoint.getRawQuery() == null ? "" : "?" + endpoint.getRawQuery();
        return URI.create(endpoint.getScheme().toLowerCase(Locale.ROOT) + "://"
                + endpoint.getRawAuthority().toLowerCase(Locale.ROOT) + path + query);
    }

    /** Whether resource metadata naming {@code configured} may speak for {@code requested}: same origin, path prefix. */
    static boolean allowed(URI requested, URI configured) {
        if (configured.getScheme() == null || configured.getRawAuthority() == null
                || !configured.getScheme().equalsIgnoreCase(requested.getScheme())
                || !configured.getRawAuthority().equalsIgnoreCase(requested.getRawAuthority())) {
            return false;
        }
        String want = withSlash(requested.getRawPath());
        String have = withSlash(configured.getRawPath());
        return want.startsWith(have);
    }

    private static String withSlash(String path) {
        String p = path == null ? "" : path;
        return p.endsWith("/") ? p : p + "/";
    }

    private static String trimSlash(String path) {
        String p = path == null ? "" : path;
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }
}
