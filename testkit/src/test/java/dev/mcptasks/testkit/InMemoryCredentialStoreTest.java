package dev.mcptasks.testkit;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.testkit.contract.CredentialStoreContract;

/** Runs the credential store contract against the in-memory fake. */
class InMemoryCredentialStoreTest extends CredentialStoreContract {
    @Override
    protected CredentialStore createStore(Clock clock) {
        return new InMemoryCredentialStore(clock);
    }
}
