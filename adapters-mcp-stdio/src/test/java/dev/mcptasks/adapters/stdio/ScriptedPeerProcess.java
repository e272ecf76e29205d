package dev.mcptasks.adapters.stdio;

import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.testkit.transport.StdioScriptedPeerMain;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Builds the spec that launches the scripted peer as a child JVM on this test's class path. */
final class ScriptedPeerProcess {
    private ScriptedPeerProcess() {}

    static McpServerSpec spec(Map<String, String> env, int maxMessageBytes, Path workingDirectory) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> args = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), StdioScriptedPeerMain.class.getName());
        return new McpServerSpec("peer", java, args, env, workingDirectory, null, null, null, null, maxMessageBytes);
    }
}
