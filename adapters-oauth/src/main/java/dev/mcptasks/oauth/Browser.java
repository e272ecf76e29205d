package dev.mcptasks.oauth;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/** Opens an authorization url by running a command with the url as its last argument (e.g. {@code xdg-open}). */
@FunctionalInterface
interface Browser {
    void open(URI url);

    /** {@code command} split on white space; the process runs on its own (its output is discarded). */
    static Browser command(String command) {
        return url -> {
            List<String> argv = new ArrayList<>(List.of(command.trim().split("\\s+")));
            argv.add(url.toString());
            try {
                new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            } catch (IOException e) {
                throw new OAuthFailure("cannot run the browser command '" + command + "': " + e.getMessage());
            }
        };
    }
}
