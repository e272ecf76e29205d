package dev.mcptasks.adapters.sqlite;

import org.apache.ibatis.annotations.Param;

/** The SQL of the gateway's front sessions ({@code FrontSessionMapper.xml} beside it). */
interface FrontSessionMapper {
    int insertSession(@Param("id") String id, @Param("principal") String principal,
            @Param("protocolVersion") String protocolVersion, @Param("capabilities") String capabilities,
            @Param("createdAt") long createdAt, @Param("lastUsedAt") long lastUsedAt);

    FrontSessionRow selectSession(@Param("id") String id);

    int touchSession(@Param("id") String id, @Param("lastUsedAt") long lastUsedAt);

    int deleteSession(@Param("id") String id);

    int deleteUnusedSince(@Param("cutoff") long cutoff, @Param("limit") int limit);
}
