#include "loyd/tables/set_fit.h"

#include "loyd/base/error.h"
#include "loyd/board/goal_map.h"
#include "loyd/tables/discover.h"

namespace loyd::tables {

SetMisfit misfit(const PdbSetSpec& set, const board::Board& goal, board::Metric metric) {
    if (set.metric != metric) return SetMisfit::Metric;
    if (!(set.geometry() == goal.geometry())) return SetMisfit::Board;
    if (!board::GoalMapping::find(goal, set.goal)) return SetMisfit::Goal;
    return SetMisfit::None;
}

std::string misfit_message(SetMisfit why, const PdbSetSpec& set, const std::string& subject,
                           const board::Board& goal, board::Metric metric,
                           const std::string& remedy) {
    switch (why) {
        case SetMisfit::None: return "";
        case SetMisfit::Metric:
            return subject + " count " + to_string(set.metric) + " moves, the search " +
                   to_string(metric) + " moves; " + remedy;
        case SetMisfit::Board:
            return subject + " are for " + set.geometry().name() + " boards, the instance is " +
                   goal.geometry().name();
        case SetMisfit::Goal:
            return subject + " are for goal '" + set.goal.to_string() + "' on " +
                   set.geometry().name() + ", which the instance's goal '" + goal.to_string() +
                   "' does not map onto; " + remedy;
    }
    return "";
}

std::string misfit_message(SetMisfit why, const PdbSetSpec& set, const std::string& where,
                           const board::Board& goal, board::Metric metric) {
    if (why == SetMisfit::None || why == SetMisfit::Board)
        return misfit_message(why, set, "the tables in " + where, goal, metric, "");
    return misfit_message(why, set, "the tables in " + where, goal, metric,
                          "build tables for it with: " + suggest_build_command(goal, metric));
}

void require_fit(const PdbSetSpec& set, const std::string& where, const board::Board& goal,
                 board::Metric metric) {
    const SetMisfit why = misfit(set, goal, metric);
    if (why != SetMisfit::None) throw UsageError(misfit_message(why, set, where, goal, metric));
}

}  // namespace loyd::tables
