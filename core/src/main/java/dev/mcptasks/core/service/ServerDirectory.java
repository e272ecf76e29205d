package dev.mcptasks.core.service;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The configured MCP servers, by name. */
public interface ServerDirectory {
    Optional<ServerProfile> find(String serverName);

    /** A directory over a fixed list of profiles (names must be unique). */
    static ServerDirectory of(Collection<ServerProfile> profiles) {
        Map<String, ServerProfile> byName = new LinkedHashMap<>();
        for (ServerProfile profile : profiles) {
            if (byName.putIfAbsent(profile.name(), profile) != null) {
                throw new IllegalArgumentException("server '" + profile.name() + "' is configured twice");
            }
        }
        Map<String, ServerProfile> frozen = Map.copyOf(byName);
        return name -> Optional.ofNullable(name == null ? null : frozen.get(name));
    }
}
