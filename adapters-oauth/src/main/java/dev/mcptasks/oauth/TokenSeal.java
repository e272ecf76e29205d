package dev.mcptasks.oauth;

/** Seals credentials with AES-256-GCM before they reach the store. */
final class TokenSeal {
    static final int KEY_BYTES = 32;

    private final byte[] key;

    TokenSeal(byte[] key) {
        this.key = checkKey(key).clone();
    }

    static byte[] checkKey(byte[] key) {
        if (key == null || key.length != KEY_BYTES) {
            throw new IllegalArgumentException("the OAuth sealing key (MCP_TASKS_SECRET_KEY, base64) must be "
                    + KEY_BYTES + " bytes, was " + (key == null ? "missing" : key.length + " bytes"));
        }
        return key;
    }
}
