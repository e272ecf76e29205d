package dev.mcptasks.adapters.postgres;

import java.time.Instant;
import org.apache.ibatis.annotations.Param;

/** The SQL of the gateway's front sessions ({@code FrontSessionMapper.xml} beside it). */
interface FrontSessionMapper {
    int insertSession(@Param("id") String id, @Param("principal") String principal,
            @Param("protocolVersion") String protocolVersion, @Param("capabilities") String capabilities,
            @Param("createdAt") Instant createdAt, @Param("lastUsedAt") Instant lastUsedAt);

    FrontSessionRow selectSession(@Param("id") String id);

    int touchSession(@Param("id") String id, @Param("lastUsedAt") Instant lastUsedAt);

    int deleteSession(@Param("id") String id);

    int deleteUnusedSince(@Param("cutoff") Instant cutoff, @Param("limit") int limit);
}
