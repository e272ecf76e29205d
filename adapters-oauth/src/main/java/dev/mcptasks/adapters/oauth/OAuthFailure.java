package dev.mcptasks.adapters.oauth;

/** A step of an OAuth flow failed; the message is one line naming the cause (never a token or secret). */
class OAuthFailure extends RuntimeException {
    OAuthFailure(String message) {
        super(message);
    }

    OAuthFailure(String message, Throwable cause) {
        super(message, cause);
    }

    /** The authorization server answered a token request with an OAuth error (RFC 6749 section 5.2). */
    static final class TokenError extends OAuthFailure {
        final String error;

        TokenError(String error, String message) {
            super(message);
            this.error = error;
        }

        /** The grant (refresh token, code) is invalid, expired or revoked: only a new authorization helps. */
        boolean grantRefused() {
            return "invalid_grant".equals(error);
        }
    }
}
