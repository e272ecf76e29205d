package dev.mcptasks.adapters.oauth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;

/**
 * {@code private_key_jwt} client authentication (RFC 7523 section 2.2, OpenID Connect Core 9): a short-lived JWT
 * signed with the client's key, {@code iss = sub = client_id}, {@code aud} the authorization server. ES256
 * signatures are JOSE's fixed-width {@code r || s} (RFC 7518 section 3.4), not the DER the JDK's plain
 * {@code SHA256withECDSA} produces.
 */
final class ClientAssertion {
    static final String TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
    private static final long LIFETIME_SECONDS = 300;

    private final PrivateKey key;
    private final String algorithm;

    ClientAssertion(String pem, String configuredAlgorithm) {
        this.key = parse(pem);
        this.algorithm = configuredAlgorithm != null ? configuredAlgorithm
                : key instanceof ECPrivateKey ? "ES256" : "RS256";
        if (algorithm.equals("ES256") != (key instanceof ECPrivateKey)) {
            throw new IllegalArgumentException("oauth signingAlgorithm " + algorithm + " does not fit the "
                    + key.getAlgorithm() + " privateKeyPem");
        }
    }

    String algorithm() {
        return algorithm;
    }

    String sign(String clientId, String audience, Instant now) {
        ObjectNode header = OAuthHttp.JSON.createObjectNode().put("alg", algorithm).put("typ", "JWT");
        ObjectNode claims = OAuthHttp.JSON.createObjectNode()
                .put("iss", clientId)
                .put("sub", clientId)
                .put("aud", audience)
                .put("iat", now.getEpochSecond())
                .put("exp", now.getEpochSecond() + LIFETIME_SECONDS)
                .put("jti", UUID.randomUUID().toString());
        String input = b64(header.toString().getBytes(StandardCharsets.UTF_8)) + "."
                + b64(claims.toString().getBytes(StandardCharsets.UTF_8));
        try {
            Signature signature = Signature.getInstance(
                    algorithm.equals("ES256") ? "SHA256withECDSAinP1363Format" : "SHA256withRSA");
            signature.initSign(key);
            signature.update(input.getBytes(StandardCharsets.US_ASCII));
            return input + "." + b64(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new OAuthFailure("cannot sign the client assertion: " + e.getMessage(), e);
        }
    }

    /** A PKCS#8 PEM ({@code -----BEGIN PRIVATE KEY-----}) holding an EC P-256 or an RSA key. */
    static PrivateKey parse(String pem) {
        if (pem == null || !pem.contains("-----BEGIN PRIVATE KEY-----")) {
            throw new IllegalArgumentException("oauth privateKeyPem must be a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)"
                    + (pem != null && pem.contains("BEGIN EC PRIVATE KEY")
                            ? "; convert it with: openssl pkcs8 -topk8 -nocrypt" : ""));
        }
        String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        byte[] der;
        try {
            der = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("oauth privateKeyPem is not valid base64");
        }
        for (String type : new String[] {"EC", "RSA"}) {
            try {
                return KeyFactory.getInstance(type).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // try the next key type
            }
        }
        throw new IllegalArgumentException("oauth privateKeyPem holds neither an EC nor an RSA private key");
    }

    static String b64(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
