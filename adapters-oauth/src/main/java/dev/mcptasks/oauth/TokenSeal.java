package dev.mcptasks.oauth;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals credentials with AES-256-GCM before they reach the store: {@code [key id][12-byte random nonce][ciphertext
 * and 16-byte tag]}. The key id (the first byte of the key's SHA-256) tells "sealed with another key" apart from
 * "corrupt" without trying to decrypt; the tag authenticates the rest, so a tampered value never opens.
 */
final class TokenSeal {
    static final int KEY_BYTES = 32;
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

    static byte[] checkKey(byte[] key) {
        if (key == null || key.length != KEY_BYTES) {
            throw new IllegalArgumentException("the OAuth sealing key (MCP_TASKS_SECRET_KEY, base64) must be "
                    + KEY_BYTES + " bytes, was " + (key == null ? "missing" : key.length + " bytes"));
        }
        return key;
    }

    byte[] seal(byte[] plain) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(new byte[] {keyId});
            byte[] sealed = cipher.doFinal(plain);
            return ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length).put(keyId).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot seal a credential: " + e.getMessage(), e);
        }
    }

    /** The clear bytes; throws {@link SealException} with a one-line cause when they cannot be had. */
    byte[] open(byte[] sealed) {
        if (sealed.length < 1 + NONCE_BYTES + TAG_BITS / 8) {
            throw new SealException("the stored credential is truncated (" + sealed.length + " bytes)");
        }
        if (sealed[0] != keyId) {
            throw new SealException("the stored credential was sealed with another key than MCP_TASKS_SECRET_KEY");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 1, NONCE_BYTES));
            cipher.updateAAD(new byte[] {keyId});
            return cipher.doFinal(sealed, 1 + NONCE_BYTES, sealed.length - 1 - NONCE_BYTES);
        } catch (GeneralSecurityException e) {
            throw new SealException("the stored credential does not open with MCP_TASKS_SECRET_KEY (wrong key or "
                    + "corrupt value)");
        }
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
