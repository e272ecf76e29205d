package dev.mcptasks.adapters.admin;

import com.google.inject.Provider;
import com.zaxxer.hikari.HikariDataSource;
import dev.mcptasks.ports.metrics.ConnectionPools;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HikariCP's own meters of the store's pools ({@code hikaricp_connections_*}, labelled by pool name), bound to the
 * registry at the first scrape: by then the store is open, and a store that cannot be opened leaves the probes and
 * the other metrics working (the next scrape tries again). Pools of another kind are skipped.
 */
final class PoolMeters {
    private static final Logger LOG = LoggerFactory.getLogger(PoolMeters.class);

    private final Optional<Provider<ConnectionPools>> pools;
    private final MeterRegistry registry;
    private volatile boolean bound;

    PoolMeters(Optional<Provider<ConnectionPools>> pools, MeterRegistry registry) {
        this.pools = pools;
        this.registry = registry;
    }

    void bindOnce() {
        if (bound || pools.isEmpty()) {
            return;
        }
        synchronized (this) {
            if (bound) {
                return;
            }
            Map<String, DataSource> all;
            try {
                all = pools.get().get().pools();
            } catch (RuntimeException e) {
                LOG.debug("the store's pools cannot be reached yet; their meters are bound at a later scrape", e);
                return;
            }
            all.forEach(this::bind);
            bound = true;
        }
    }

    private void bind(String name, DataSource pool) {
        try {
            if (pool.isWrapperFor(HikariDataSource.class)) {
                HikariDataSource hikari = pool.unwrap(HikariDataSource.class);
                if (hikari.getMetricRegistry() == null) {
                    hikari.setMetricRegistry(registry);
                }
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("pool {}: its meters cannot be bound: {}", name, e.toString());
        }
    }
}
