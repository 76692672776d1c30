//===- tests/model/tools/doc_tool.cpp - The C++ side of the schema tests --===//
//
//   model_doc_tool write DIR    writes the fixtures of Fixtures.h (and a few
//                               minimal documents) into DIR as dlayout
//                               writes them: model.json, layout.json, ...
//   model_doc_tool check FILE...
//                               reads each document with the C++ reader its
//                               "schema" field names and prints one line per
//                               file: "FILE\tok" or "FILE\terror\tMESSAGE".
//
// The schema tests validate what `write` produces against docs/schema/, and
// compare the verdicts of `check` with the schemas' (crosscheck.py).
//
//===----------------------------------------------------------------------===//

#include "Fixtures.h"
#include "model/Json.h"
#include "model/LayoutJson.h"
#include "model/MachineJson.h"
#include "model/ProgramJson.h"

#include <fstream>
#include <iostream>

using namespace dlayout;

namespace {

bool write(const std::string &path, const nlohmann::json &doc) {
  std::ofstream out(path);
  out << dump(doc);
  out.close();
  if (!out) {
    std::cerr << "model_doc_tool: cannot write " << path << "\n";
    return false;
  }
  return true;
}

int writeExamples(const std::string &dir) {
  Program empty;
  empty.language = "c";
  Machine bare; // every optional field at its default
  bare.name = "bare";
  bare.message = {{0, 1e-6, 1e-9}};
  Layout serial;
  serial.mesh = {1};
  serial.arrays["A"].dims = {DimLayout{}, DimLayout{}};
  bool ok = write(dir + "/model.json", toJson(testing::richProgram())) &&
            write(dir + "/empty-model.json", toJson(empty)) &&
            write(dir + "/layout.json", toJson(testing::richLayout())) &&
            write(dir + "/serial-layout.json", toJson(serial)) &&
            write(dir + "/machine.json", toJson(testing::ipsc2())) &&
            write(dir + "/bare-machine.json", toJson(bare));
  return ok ? 0 : 1;
}

/// "" when the document is accepted, else the reader's message.
std::string check(const std::string &path) {
  auto text = readFile(path);
  if (!text)
    return text.error().message;
  auto doc = jsonio::parse(*text);
  if (!doc)
    return doc.error().message;
  std::string schema;
  if (doc->is_object() && doc->contains("schema") &&
      (*doc)["schema"].is_string())
    schema = (*doc)["schema"].get<std::string>();
  auto verdict = [](const auto &r) { return r ? "" : r.error().message; };
  if (schema == kLayoutSchema)
    return verdict(layoutFromJson(*doc));
  if (schema == kMachineSchema)
    return verdict(machineFromJson(*doc));
  return verdict(programFromJson(*doc)); // reports any other schema
}

} // namespace

int main(int argc, char **argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "write" && argc == 3)
    return writeExamples(argv[2]);
  if (mode == "check") {
    for (int i = 2; i < argc; ++i) {
      std::string message = check(argv[i]);
      std::cout << argv[i] << (message.empty() ? "\tok" : "\terror\t" + message)
                << "\n";
    }
    return 0;
  }
  std::cerr << "usage: model_doc_tool write DIR | check FILE...\n";
  return 2;
}
