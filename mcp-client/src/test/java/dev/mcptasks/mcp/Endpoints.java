package dev.mcptasks.mcp;

import dev.mcptasks.ports.transport.McpServerSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Specs for servers the tests start: the reference server as a child JVM, and child JVMs in general. */
final class Endpoints {
    private Endpoints() {}

    /** A stdio spec running {@code mainClass} in a child JVM on this test's class path. */
    static McpServerSpec javaStdio(String name, Class<?> mainClass, List<String> args, int maxMessageBytes) {
        List<String> command = new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"),
                "-XX:TieredStopAtLevel=1", "-Xshare:auto", mainClass.getName()));
        command.addAll(args);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new McpServerSpec(name, java, command, Map.of(), null, null, null, null, null, maxMessageBytes);
    }
}
