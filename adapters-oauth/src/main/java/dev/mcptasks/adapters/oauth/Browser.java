package dev.mcptasks.adapters.oauth;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/** Opens an authorization url by running a command with the url as its last argument (e.g. {@code xdg-open}). */
@FunctionalInterface
interface Browser {
    void open(URI url);

    /**
     * {@code command} split into words as a shell would ({@link CommandWords}: quotes keep white space, nothing is
     * expanded); the process runs on its own (its output is discarded).
     */
    static Browser command(String command) {
        return url -> {
            List<String> argv;
            try {
                argv = new ArrayList<>(CommandWords.split(command));
            } catch (IllegalArgumentException e) {
                throw new OAuthFailure("cannot run the browser command '" + command + "': " + e.getMessage());
            }
            if (argv.isEmpty()) {
                throw new OAuthFailure("the browser command is empty");
            }
            argv.add(url.toString());
            try {
                Process process = new ProcessBuilder(argv).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                process.getOutputStream().close(); // no input: a command that reads stdin sees its end
            } catch (IOException e) {
                throw new OAuthFailure("cannot run the browser command '" + command + "': " + e.getMessage());
            }
        };
    }
}
