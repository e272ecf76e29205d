package dev.mcptasks.adapters.http;

import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import dev.mcptasks.testkit.transport.McpTransportContract;
import dev.mcptasks.testkit.transport.ScriptedPeer;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The transport contract against the in-test server answering POSTs with SSE streams. */
class HttpSseContractTest extends McpTransportContract {
    protected ScriptedHttpPeer peer;

    protected ScriptedHttpPeer.Mode mode() {
        return ScriptedHttpPeer.Mode.SSE;
    }

    @Override
    protected McpTransport newTransport() {
        try {
            peer = new ScriptedHttpPeer(mode());
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return new HttpTransportFactory().create(new McpServerSpec("peer", null, null, null, null, peer.url(),
                Map.of(), null, null, MAX_MESSAGE_BYTES));
    }

    @Override
    protected void stopPeer() {
        peer.close();
    }

    @Override
    protected String lossMethod() {
        return ScriptedPeer.DROP_SESSION;
    }

    @Override
    protected Kind lossKind() {
        return Kind.SESSION_LOST;
    }

    @Override
    protected boolean peerSawGracefulClose() throws Exception {
        String deleted = peer.deleted.poll(5, TimeUnit.SECONDS);
        return deleted != null && !deleted.equals("null") && !peer.sessions.contains(deleted);
    }
}
