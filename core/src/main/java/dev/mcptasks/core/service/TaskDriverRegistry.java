package dev.mcptasks.core.service;

import dev.mcptasks.ports.driver.TaskDriver;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** Finds the {@link TaskDriver} serving a configured server, through the driver name of its {@link ServerProfile}. */
public final class TaskDriverRegistry {
    private final Map<String, TaskDriver> driversByName;
    private final ServerDirectory servers;

    public TaskDriverRegistry(Collection<? extends TaskDriver> drivers, ServerDirectory servers) {
        Map<String, TaskDriver> byName = new LinkedHashMap<>();
        for (TaskDriver driver : drivers) {
            if (byName.putIfAbsent(driver.name(), driver) != null) {
                throw new IllegalArgumentException("two drivers are named '" + driver.name() + "'");
            }
        }
        this.driversByName = Map.copyOf(byName);
        this.servers = Objects.requireNonNull(servers, "servers");
    }

    /** The driver of {@code serverName}; throws {@link UnknownServerException} naming what is missing. */
    public TaskDriver driverFor(String serverName) {
        ServerProfile profile = servers.find(serverName)
                .orElseThrow(() -> new UnknownServerException("server '" + serverName + "' is not configured"));
        return driverNamed(profile.driver());
    }

    /** The driver called {@code driverName}; throws {@link UnknownServerException} when there is none. */
    public TaskDriver driverNamed(String driverName) {
        TaskDriver driver = driversByName.get(driverName);
        if (driver == null) {
            throw new UnknownServerException("no driver named '" + driverName + "'; known: " + driversByName.keySet());
        }
        return driver;
    }

    public Set<String> driverNames() {
        return driversByName.keySet();
    }

    public ServerDirectory servers() {
        return servers;
    }
}
