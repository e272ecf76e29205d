package dev.mcptasks.app.config;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a server's {@code auth} object. Every problem is one {@link ConfigException} naming the server and the key;
 * the secret-bearing values ({@code clientSecret}, {@code privateKey}, the key file's content) are never echoed.
 */
final class AuthConfigReader {
    private static final Set<String> KEYS = Set.of("type", "grant", "clientId", "clientSecret",
            "tokenEndpointAuthMethod", "privateKey", "privateKeyFile", "signingAlgorithm", "scopes",
            "clientMetadataUrl", "authorizationServer", "redirectPort", "browser");
    static final String PRIVATE_KEY_JWT = "private_key_jwt";
    static final String NONE = "none";
    private static final List<String> AUTH_METHODS = List.of("client_secret_basic", "client_secret_post",
            PRIVATE_KEY_JWT, NONE);
    /** JWS algorithms of a client assertion (RFC 7518) that the OAuth adapter signs with: ECDSA P-256 and RSA. */
    private static final List<String> SIGNING_ALGORITHMS = List.of("ES256", "RS256");
    /** RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
    private static final Pattern SCOPE_TOKEN = Pattern.compile("[\\x21\\x23-\\x5B\\x5D-\\x7E]+");

    private final EnvSubstitution substitution;
    private final Path workingDirectory;

    AuthConfigReader(EnvSubstitution substitution, Path workingDirectory) {
        this.substitution = substitution;
        this.workingDirectory = workingDirectory;
    }

    AuthConfig read(JsonSection auth) {
        auth.requireOnly(KEYS);
        String type = auth.string("type");
        if (type != null && !type.equals(AuthConfig.OAUTH)) {
            throw new ConfigException(auth.path("type"), auth.path("type") + " must be " + AuthConfig.OAUTH
                    + ", was '" + type + "'");
        }
        AuthConfig.Grant grant = grant(auth);
        boolean clientCredentials = grant == AuthConfig.Grant.CLIENT_CREDENTIALS;
        String clientId = auth.string("clientId");
        String clientSecret = substitution.resolve(auth.path("clientSecret"), auth.string("clientSecret"));
        String method = oneOf(auth, "tokenEndpointAuthMethod", AUTH_METHODS);
        String privateKey = privateKey(auth);
        String algorithm = oneOf(auth, "signingAlgorithm", SIGNING_ALGORITHMS);

        if (clientCredentials && clientId == null) {
            throw new ConfigException(auth.path("clientId"), auth.path("clientId")
                    + " is required with grant client_credentials");
        }
        if (clientSecret != null && clientId == null) {
            throw new ConfigException(auth.path("clientSecret"), auth.path("clientSecret")
                    + " needs " + auth.path("clientId") + " (a secret belongs to a registered client)");
        }
        if (clientSecret != null && privateKey != null) {
            throw new ConfigException(auth.path("clientSecret"), auth.path("clientSecret") + " and a private key"
                    + " are two ways to authenticate the client: give one");
        }
        if (privateKey != null && method != null && !method.equals(PRIVATE_KEY_JWT)) {
            throw new ConfigException(auth.path("tokenEndpointAuthMethod"), auth.path("tokenEndpointAuthMethod")
                    + " must be " + PRIVATE_KEY_JWT + " with a private key, was '" + method + "'");
        }
        if (PRIVATE_KEY_JWT.equals(method) && privateKey == null) {
            throw new ConfigException(auth.path("privateKey"), auth.path("privateKey") + " (or privateKeyFile)"
                    + " is required with tokenEndpointAuthMethod " + PRIVATE_KEY_JWT);
        }
        if (NONE.equals(method) && clientSecret != null) {
            throw new ConfigException(auth.path("clientSecret"), auth.path("clientSecret")
                    + " is never sent with tokenEndpointAuthMethod none");
        }
        if (method != null && method.startsWith("client_secret_") && clientId != null && clientSecret == null) {
            throw new ConfigException(auth.path("clientSecret"), auth.path("clientSecret")
                    + " is required with tokenEndpointAuthMethod " + method);
        }
        if (clientCredentials && clientSecret == null && privateKey == null) {
            throw new ConfigException(auth.path("clientSecret"), auth.path("clientSecret") + " (or privateKey)"
                    + " is required with grant client_credentials");
        }
        if (clientCredentials && NONE.equals(method)) {
            throw new ConfigException(auth.path("tokenEndpointAuthMethod"), auth.path("tokenEndpointAuthMethod")
                    + " none is not valid with grant client_credentials (the client must authenticate)");
        }
        if (algorithm != null && privateKey == null) {
            throw new ConfigException(auth.path("signingAlgorithm"), auth.path("signingAlgorithm")
                    + " applies to a private key, and there is none");
        }
        if (clientCredentials) {
            // these serve a person's login in a browser: a machine client has none
            rejectPresent(auth, "clientMetadataUrl", "redirectPort", "browser");
        }
        return new AuthConfig(grant, clientId, clientSecret, method, privateKey, algorithm, scopes(auth),
                clientMetadataUrl(auth), url(auth, "authorizationServer"),
                auth.intIn("redirectPort", 0, 0, 65_535), auth.string("browser"));
    }

    /** A server with {@code auth} gets its {@code Authorization} header from OAuth: a configured one would clash. */
    static void rejectAuthorizationHeader(JsonSection server) {
        for (String header : server.stringMap("headers").keySet()) {
            if (header.equalsIgnoreCase("Authorization")) {
                String path = server.section("headers").path(header);
                throw new ConfigException(path, path + " cannot be set with " + server.path("auth")
                        + " (OAuth sends the Authorization header)");
            }
        }
    }

    private static AuthConfig.Grant grant(JsonSection auth) {
        String value = auth.string("grant");
        if (value == null) {
            return AuthConfig.Grant.AUTHORIZATION_CODE;
        }
        for (AuthConfig.Grant grant : AuthConfig.Grant.values()) {
            if (grant.wireName().equals(value)) {
                return grant;
            }
        }
        throw new ConfigException(auth.path("grant"), auth.path("grant")
                + " must be client_credentials or authorization_code, was '" + value + "'");
    }

    private static String oneOf(JsonSection auth, String key, List<String> allowed) {
        String value = auth.string(key);
        if (value != null && !allowed.contains(value)) {
            throw new ConfigException(auth.path(key), auth.path(key) + " must be one of "
                    + String.join(", ", allowed) + ", was '" + value + "'");
        }
        return value;
    }

    /** {@code privateKey} (PEM text, typically {@code ${env:NAME}}) or {@code privateKeyFile} (a path), checked. */
    private String privateKey(JsonSection auth) {
        if (auth.has("privateKey") && auth.has("privateKeyFile")) {
            throw new ConfigException(auth.path("privateKeyFile"), auth.path("privateKeyFile") + " and "
                    + auth.path("privateKey") + " both give the key: give one");
        }
        String key;
        String at;
        if (auth.has("privateKeyFile")) {
            at = auth.path("privateKeyFile");
            key = readKeyFile(at, auth.string("privateKeyFile"));
        } else {
            at = auth.path("privateKey");
            key = substitution.resolve(at, auth.string("privateKey"));
        }
        if (key == null) {
            return null;
        }
        // a PKCS#8 or traditional PEM private key; its content is for the OAuth adapter to parse, never to print
        if (!key.contains("-----BEGIN ") || !key.contains("PRIVATE KEY-----")) {
            throw new ConfigException(at, at + " must be a PEM private key (-----BEGIN PRIVATE KEY-----)");
        }
        return key;
    }

    private String readKeyFile(String at, String file) {
        try {
            return Files.readString(workingDirectory.resolve(file));
        } catch (NoSuchFileException e) {
            throw new ConfigException(at, at + " names a file that does not exist: " + file);
        } catch (InvalidPathException e) {
            throw new ConfigException(at, at + " is not a valid path");
        } catch (IOException e) {
            throw new ConfigException(at, at + " cannot be read (" + e.getClass().getSimpleName() + "): " + file);
        }
    }

    /** {@code scopes}: an array of scope tokens or one space-separated string; an empty list means none configured. */
    private static List<String> scopes(JsonSection auth) {
        if (!auth.has("scopes")) {
            return List.of();
        }
        List<String> scopes = new ArrayList<>();
        String path = auth.path("scopes");
        if (auth.isString("scopes")) {
            for (String scope : auth.string("scopes").strip().split("\\s+")) {
                scopes.add(scope(path, scope));
            }
        } else {
            List<String> items = auth.stringList("scopes");
            for (int i = 0; i < items.size(); i++) {
                scopes.add(scope(path + "[" + i + "]", items.get(i)));
            }
            if (scopes.isEmpty()) {
                throw new ConfigException(path, path + " must not be empty (leave it out to request what the"
                        + " server asks for)");
            }
        }
        return scopes.stream().distinct().toList();
    }

    private static String scope(String path, String scope) {
        if (!SCOPE_TOKEN.matcher(scope).matches()) {
            throw new ConfigException(path, path + " holds an invalid scope '" + scope
                    + "' (a scope is printable ASCII without spaces, quotes or backslashes)");
        }
        return scope;
    }

    /** A client id metadata document is fetched by the authorization server: an https url with a path. */
    private static URI clientMetadataUrl(JsonSection auth) {
        URI url = url(auth, "clientMetadataUrl");
        if (url != null && (!url.getScheme().equals("https") || url.getRawPath() == null
                || url.getRawPath().isEmpty() || url.getRawPath().equals("/") || url.getRawFragment() != null)) {
            throw new ConfigException(auth.path("clientMetadataUrl"), auth.path("clientMetadataUrl")
                    + " must be an https:// url with a path and no fragment (the client id metadata document)");
        }
        return url;
    }

    private static URI url(JsonSection auth, String key) {
        String value = auth.string(key);
        if (value == null) {
            return null;
        }
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme();
            if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                throw new ConfigException(auth.path(key), auth.path(key) + " must be an http:// or https:// url");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new ConfigException(auth.path(key), auth.path(key) + " is not a valid url: " + e.getReason());
        }
    }

    private static void rejectPresent(JsonSection auth, String... keys) {
        for (String key : keys) {
            if (auth.has(key)) {
                throw new ConfigException(auth.path(key), auth.path(key)
                        + " is not valid with grant client_credentials (it serves a person's browser login)");
            }
        }
    }
}
