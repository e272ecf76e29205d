package dev.mcptasks.adapters.http;

/** The transport contract against the in-test server answering POSTs with plain JSON bodies. */
class HttpJsonContractTest extends HttpSseContractTest {
    @Override
    protected ScriptedHttpPeer.Mode mode() {
        return ScriptedHttpPeer.Mode.JSON;
    }

    @Override
    protected boolean inlineNotifications() {
        return false;
    }
}
