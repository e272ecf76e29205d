package dev.mcptasks.adapters.oauth;

import java.time.Instant;
import java.util.List;

/** How a {@link OAuthLogins#login} ended. */
public sealed interface LoginOutcome {

    /** Tokens are stored; {@code expiresAt} is null when the server gave no lifetime. */
    record LoggedIn(String server, Instant expiresAt, List<String> scopes) implements LoginOutcome {
        public LoggedIn {
            scopes = scopes == null ? List.of() : List.copyOf(scopes);
        }
    }

    /** No tokens; {@code reason} is one line naming the cause. */
    record Failed(String reason) implements LoginOutcome {
    }
}
