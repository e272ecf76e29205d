package dev.mcptasks.adapters.oauth;

import java.net.URI;

/**
 * Seals and opens one server's credential bound to its credential key and resource ({@link TokenSeal}), and
 * refuses one that is not for the server's url: a row copied from another server, or a configuration that now points
 * the server's name at another url, never has its token sent.
 *
 * <p>Invariant: {@link #open} returns a credential only if it was sealed under this credential key (a legacy row:
 * under this deployment's key) and, once the server's url is known, its resource covers that url (same origin, path
 * prefix, as {@link Discovery#allowed} asks of resource metadata). The url is known in every process that sends
 * requests ({@link OAuthAuthorizers#forServer}, the login command); only {@code auth status} reads without it.
 */
final class BoundCredentials {
    private final TokenSeal seal;
    private final String key;
    private final String server;
    private volatile URI endpoint;

    BoundCredentials(TokenSeal seal, String key, String server) {
        this.seal = seal;
        this.key = key;
        this.server = server;
    }

    /** The url the server's requests go to (the first known is kept); whether this call made it known. */
    synchronized boolean bind(URI url) {
        if (endpoint != null || url == null) {
            return false;
        }
        endpoint = Discovery.canonical(url);
        return true;
    }

    byte[] seal(Credential credential) {
        return seal.seal(credential.toJson(), key, credential.resource() == null ? null
                : credential.resource().toString());
    }

    /** The credential, or {@link TokenSeal.SealException} naming why it is not this server's and what to do. */
    Credential open(byte[] sealed) {
        TokenSeal.Opened opened;
        try {
            opened = seal.open(sealed, key);
        } catch (TokenSeal.SealException e) {
            throw new TokenSeal.SealException(e.getMessage() + "; run bin/mcp-tasks auth login " + server);
        }
        Credential credential = Credential.fromJson(opened.plain());
        // a legacy row names its resource only inside (authenticated all the same); a bound row in both places
        URI resource = opened.legacy() ? credential.resource()
                : opened.resource() == null ? null : URI.create(opened.resource());
        URI url = endpoint;
        if (url != null && (resource == null || !Discovery.allowed(url, resource))) {
            throw new TokenSeal.SealException("the stored credential is for " + (resource == null ? "no resource"
                    : "resource " + resource) + ", not for this server's url " + url + " (copied from another server, "
                    + "or the url changed): its token is not sent; run bin/mcp-tasks auth login " + server);
        }
        return credential;
    }
}
