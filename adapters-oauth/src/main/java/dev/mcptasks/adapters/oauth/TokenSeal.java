package dev.mcptasks.adapters.oauth;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals credentials with AES-256-GCM before they reach the store, bound to where they belong:
 * {@code [magic][key id][resource length][resource][12-byte random nonce][ciphertext and 16-byte tag]}, with the
 * credential key (e.g. {@code oauth:SERVER}) and the resource as additional authenticated data. A value copied to
 * another key does not open; one copied to another server's url opens only to name a resource the caller then
 * refuses ({@link ServerAuthorizer}); a tampered resource does not open. The key id (the first byte of the key's
 * SHA-256) tells "sealed with another key" apart from "corrupt" without trying to decrypt.
 *
 * <p>The first format ({@code [key id][nonce][ciphertext]}, the key id alone authenticated) is still opened, as
 * {@link Opened#legacy()}: it is bound to no key, so the caller takes it only where the resource inside it (which
 * the tag does authenticate) is the server's own; the next write seals it in this format.
 */
final class TokenSeal {
    static final int KEY_BYTES = 32;
    private static final byte[] MAGIC = {(byte) 0xC5, 'm', 't', 2};
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;
    private final byte keyId;

    TokenSeal(byte[] key) {
        checkKey(key);
        this.key = new SecretKeySpec(key.clone(), "AES");
        this.keyId = keyId(key);
    }

    /**
     * @param resource the RFC 8707 resource the credential's tokens are for, or null
     * @param legacy sealed in the first format: {@code resource} is null, the value is bound to no key
     */
    record Opened(byte[] plain, String resource, boolean legacy) {
    }

    static byte[] checkKey(byte[] key) {
        if (key == null || key.length != KEY_BYTES) {
            throw new IllegalArgumentException("the OAuth sealing key (MCP_TASKS_SECRET_KEY, base64) must be "
                    + KEY_BYTES + " bytes, was " + (key == null ? "missing" : key.length + " bytes"));
        }
        return key;
    }

    /** Seals {@code plain} for {@code credentialKey} and {@code resource} (null: none). */
    byte[] seal(byte[] plain, String credentialKey, String resource) {
        byte[] resourceBytes = (resource == null ? "" : resource).getBytes(StandardCharsets.UTF_8);
        if (resourceBytes.length > 0xFFFF) {
            throw new IllegalArgumentException("a resource url of " + resourceBytes.length + " bytes cannot be sealed");
        }
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(aad(credentialKey, resourceBytes));
            byte[] sealed = cipher.doFinal(plain);
            return ByteBuffer.allocate(MAGIC.length + 1 + 2 + resourceBytes.length + NONCE_BYTES + sealed.length)
                    .put(MAGIC).put(keyId).putShort((short) resourceBytes.length).put(resourceBytes).put(nonce)
                    .put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot seal a credential: " + e.getMessage(), e);
        }
    }

    /** The clear bytes sealed for {@code credentialKey}; throws {@link SealException} with a one-line cause. */
    Opened open(byte[] sealed, String credentialKey) {
        if (sealed.length < MAGIC.length || !Arrays.equals(sealed, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            return new Opened(decrypt(sealed, 0, 1, new byte[] {keyId}, "wrong key or corrupt value"), null,
                    true);
        }
        int resourceAt = MAGIC.length + 1 + 2;
        if (sealed.length < resourceAt) {
            throw truncated(sealed);
        }
        int length = Short.toUnsignedInt(ByteBuffer.wrap(sealed, MAGIC.length + 1, 2).getShort());
        if (sealed.length < resourceAt + length) {
            throw truncated(sealed);
        }
        byte[] resource = Arrays.copyOfRange(sealed, resourceAt, resourceAt + length);
        byte[] plain = decrypt(sealed, MAGIC.length, resourceAt + length, aad(credentialKey, resource),
                "it was sealed for another credential than " + credentialKey + " (copied from another server?), "
                        + "or it is corrupt");
        return new Opened(plain, length == 0 ? null : new String(resource, StandardCharsets.UTF_8), false);
    }

    private byte[] decrypt(byte[] sealed, int keyIdAt, int nonceAt, byte[] aad, String mismatch) {
        if (sealed.length < nonceAt + NONCE_BYTES + TAG_BITS / 8) {
            throw truncated(sealed);
        }
        if (sealed[keyIdAt] != keyId) {
            throw new SealException("the stored credential was sealed with another key than MCP_TASKS_SECRET_KEY");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, nonceAt, NONCE_BYTES));
            cipher.updateAAD(aad);
            int from = nonceAt + NONCE_BYTES;
            return cipher.doFinal(sealed, from, sealed.length - from);
        } catch (GeneralSecurityException e) {
            throw new SealException("the stored credential does not open with MCP_TASKS_SECRET_KEY: " + mismatch);
        }
    }

    private static SealException truncated(byte[] sealed) {
        return new SealException("the stored credential is truncated (" + sealed.length + " bytes)");
    }

    /** magic, key id, then the credential key and the resource, each with its length (no two pairs run together). */
    private byte[] aad(String credentialKey, byte[] resource) {
        byte[] keyBytes = credentialKey.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream aad = new ByteArrayOutputStream();
        aad.writeBytes(MAGIC);
        aad.write(keyId);
        aad.writeBytes(ByteBuffer.allocate(4).putInt(keyBytes.length).array());
        aad.writeBytes(keyBytes);
        aad.writeBytes(ByteBuffer.allocate(4).putInt(resource.length).array());
        aad.writeBytes(resource);
        return aad.toByteArray();
    }

    private static byte keyId(byte[] key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key)[0];
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static final class SealException extends RuntimeException {
        SealException(String message) {
            super(message);
        }
    }
}
