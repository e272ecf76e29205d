package dev.mcptasks.adapters.postgres;

import java.time.Instant;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/** The SQL of the audit log ({@code AuditMapper.xml} beside it). */
interface AuditMapper {
    int insertAudit(@Param("at") Instant at, @Param("principal") String principal, @Param("channel") String channel,
            @Param("action") String action, @Param("taskId") String taskId, @Param("detail") String detail);

    List<AuditRow> selectAudit(@Param("taskId") String taskId, @Param("principal") String principal,
            @Param("limit") int limit);

    int deleteAuditBefore(@Param("before") Instant before, @Param("limit") int limit);
}
