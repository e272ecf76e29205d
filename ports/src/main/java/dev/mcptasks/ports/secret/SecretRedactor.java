package dev.mcptasks.ports.secret;

/**
 * Knows this process's secret values (configured headers and tokens, webhook secrets, OAuth tokens obtained at run
 * time) and removes them from text that came from outside (an upstream's error body, a result, a message) before
 * that text is stored, logged or answered: no configured secret leaves the process in upstream text, whatever an
 * upstream or proxy echoes.
 */
public interface SecretRedactor {
    /** Knows nothing and removes nothing. */
    SecretRedactor NONE = new SecretRedactor() {
        @Override
        public void remember(String secret) {}

        @Override
        public String redact(String text) {
            return text;
        }
    };

    /** Adds {@code secret} (a value too short to be a credential is ignored: it would redact ordinary words). */
    void remember(String secret);

    /** {@code text} with every known secret, in any form it is written, replaced; null stays null. */
    String redact(String text);
}
