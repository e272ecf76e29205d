package dev.mcptasks.app.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces {@code ${env:NAME}} references in secret-bearing values (server env, headers, database password) with the
 * named environment variable. A missing variable is an error naming the key and the variable, never the value.
 */
final class EnvSubstitution {
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{env:([^}]*)}");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final Function<String, String> environment;

    EnvSubstitution(Function<String, String> environment) {
        this.environment = environment;
    }

    String resolve(String key, String value) {
        if (value == null) {
            return null;
        }
        Matcher matcher = REFERENCE.matcher(value);
        StringBuilder resolved = new StringBuilder();
        while (matcher.find()) {
            String name = matcher.group(1);
            if (!NAME.matcher(name).matches()) {
                throw new ConfigException(key, key + " refers to an invalid environment variable name '" + name + "'");
            }
            String replacement = environment.apply(name);
            if (replacement == null) {
                throw new ConfigException(key,
                        key + " refers to environment variable " + name + ", which is not set");
            }
            matcher.appendReplacement(resolved, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(resolved);
        return resolved.toString();
    }

    Map<String, String> resolveAll(String key, Map<String, String> values) {
        Map<String, String> resolved = new LinkedHashMap<>();
        values.forEach((name, value) -> resolved.put(name, resolve(key + "." + name, value)));
        return resolved;
    }
}
