package dev.mcptasks.ports.repository;

/** A repository that owns resources (a connection pool) and is closed when the runtime stops. */
public interface CloseableTaskRepository extends TaskRepository, AutoCloseable {
    @Override
    void close();
}
