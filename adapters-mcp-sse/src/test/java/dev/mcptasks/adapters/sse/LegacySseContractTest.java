package dev.mcptasks.adapters.sse;

import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import dev.mcptasks.testkit.transport.McpTransportContract;
import dev.mcptasks.testkit.transport.ScriptedPeer;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The transport contract against the in-test legacy HTTP+SSE server. */
class LegacySseContractTest extends McpTransportContract {
    private LegacySsePeer peer;

    @Override
    protected McpTransport newTransport() {
        try {
            peer = new LegacySsePeer();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return new SseTransportFactory().create(new McpServerSpec("peer", null, null, null, null, peer.url(),
                Map.of(), null, null, MAX_MESSAGE_BYTES, 0, McpServerSpec.SSE));
    }

    @Override
    protected void stopPeer() {
        peer.close();
    }

    /** The legacy session is its stream: the peer ending it loses the session. */
    @Override
    protected String lossMethod() {
        return ScriptedPeer.DROP_SESSION;
    }

    @Override
    protected Kind lossKind() {
        return Kind.SESSION_LOST;
    }

    /** There is no DELETE in the legacy transport: the client closing its stream ends the session. */
    @Override
    protected boolean peerSawGracefulClose() throws Exception {
        return peer.closedByClient.poll(5, TimeUnit.SECONDS) != null;
    }
}
