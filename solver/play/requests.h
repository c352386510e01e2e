// What the play page asks its engine, answered as JSON text: solve an instance, read a board,
// draw a scramble, describe the table sets held.
//
// Option values and field names are the command line's (README): a solve answer is the record
// `solver --json` prints for the same instance and options, written by the same function
// (output/records.h's solve_record; notation and runs are named when the style is not the
// default), from the same library calls; the browser test compares the two field by field.
// The label is the text's own `label:` or "board".
//
// Every function throws the library's errors (loyd::Error subclasses, one-line messages naming
// the token, option or file) for bad input; the caller turns them into the page's messages.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "solver/play/table_sets.h"

namespace loyd::play {

// Options by their command-line names: goal, size, heuristic, algorithm, metric, node-limit,
// time-limit, notation, runs ("true"/"false"), lookups, pdb (a held set's name). Unknown names
// are refused (UsageError).
using Options = std::map<std::string, std::string>;

// The record of solving `text` (one instance, optionally `label: board`).
std::string solve_json(const TableSets& sets, const std::string& text, const Options& opt);

// The board `text` read with the options' goal and size: {"label","width","height","tiles",
// "goal","solvable","rows","numbered"}; tiles in numbers (0 = blank), "rows" the board written
// back in rows, "numbered" false when the options' goal is written in labels.
std::string board_json(const std::string& text, const Options& opt);

// A random-state position (as `solver scramble --seed SEED`) on the options' board (--size,
// else the goal's, else 4x4): {"seed","width","height","tiles","rows"}.
std::string scramble_json(const Options& opt, uint64_t seed);

// The sets held: [{"name","board","goal","metric","reflect","embedded","tables":[{"file",
// "kind","tiles","entries"}],"entries","strength"}].
std::string sets_json(const TableSets& sets);

// One held set, as in sets_json.
std::string set_json(const tables::LoadedSet& s, bool embedded);

}  // namespace loyd::play
