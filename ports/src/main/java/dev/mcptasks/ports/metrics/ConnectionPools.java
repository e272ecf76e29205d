package dev.mcptasks.ports.metrics;

import java.util.Map;
import javax.sql.DataSource;

/**
 * The store's connection pools by name, for the operator's metrics: the metrics adapter binds each pool's own meters
 * (HikariCP's) to its registry. A store without pools has none.
 */
@FunctionalInterface
public interface ConnectionPools {
    ConnectionPools NONE = Map::of;

    Map<String, DataSource> pools();
}
