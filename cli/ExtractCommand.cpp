//===- cli/ExtractCommand.cpp - dlayout extract ---------------------------===//
#include "cli/Command.h"
#include "cli/ModelText.h"
#include "model/Json.h"
#include "model/ProgramJson.h"

#include <memory>

namespace dlayout::cli {

Command addExtractCommand(CLI::App &app, const std::vector<std::string> &flags) {
  struct Options : ProgramOptions {
    std::string format = "json", output;
  };
  auto o = std::make_shared<Options>();
  auto *cmd = app.add_subcommand(
      "extract", "Analyse a program and print its model (loops, arrays, references, "
                 "subscript classes, dependences)");
  addProgramOptions(cmd, *o);
  cmd->add_option("--format", o->format, "json (dlayout-model/1) or text")
      ->check(CLI::IsMember({"json", "text"}));
  addOutputOption(cmd, o->output);
  return {cmd, [o, &flags] {
            auto P = loadProgram(*o, flags);
            if (!P) return fail(P.error());
            std::string text = o->format == "text" ? renderModel(*P) : dump(toJson(*P));
            if (auto s = emit(text, o->output); !s) return fail(s.error());
            return 0;
          }};
}

} // namespace dlayout::cli
