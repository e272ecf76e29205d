package dev.mcptasks.adapters.stdio;

import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import dev.mcptasks.testkit.transport.McpTransportContract;
import dev.mcptasks.testkit.transport.ScriptedPeer;
import dev.mcptasks.testkit.transport.StdioScriptedPeerMain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/** The transport contract against the scripted peer running as a child JVM. */
class StdioTransportContractTest extends McpTransportContract {
    @TempDir
    Path dir;

    @Override
    protected McpTransport newTransport() {
        Map<String, String> env = Map.of(StdioScriptedPeerMain.MARKER_ENV, dir.resolve("eof").toString());
        return new StdioTransportFactory().create(ScriptedPeerProcess.spec(env, MAX_MESSAGE_BYTES, null));
    }

    @Override
    protected String lossMethod() {
        return ScriptedPeer.EXIT;
    }

    @Override
    protected Kind lossKind() {
        return Kind.PROCESS_EXITED;
    }

    @Override
    protected boolean peerSawGracefulClose() throws Exception {
        Path marker = dir.resolve("eof");
        return Files.exists(marker) && Files.readString(marker).equals("eof");
    }
}
