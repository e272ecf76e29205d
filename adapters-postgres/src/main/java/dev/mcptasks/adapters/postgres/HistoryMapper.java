package dev.mcptasks.adapters.postgres;

import java.util.List;
import java.util.Map;
import org.apache.ibatis.annotations.Param;

/** The read of a task's claim history ({@code HistoryMapper.xml} beside it); the claim statement inserts it. */
interface HistoryMapper {
    List<Map<String, Object>> selectHistory(@Param("taskId") String taskId);
}
