// apertura-cli: the headless front end. Everything the GUI can do goes through core, so it can be
// done here too.
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>

#include "app/cli/abandonable_call.h"
#include "app/cli/demo_command.h"
#include "app/cli/devices_command.h"
#include "app/cli/dirty_command.h"
#include "app/cli/info_command.h"
#include "app/cli/plugins_command.h"
#include "app/cli/run_command.h"
#include "app/cli/simulate_command.h"
#include "core/engine/interrupt.h"
#include "core/util/address_space_guard.h"
#include "core/util/cancellation.h"
#include "core/version.h"

namespace {

int run(int argc, char** argv) {
  CLI::App app{"Apertura: regularized maximum likelihood imaging for radio interferometry",
               "apertura-cli"};
  app.set_version_flag("--version", std::string("apertura-cli ") + apertura::kVersion);
  app.require_subcommand(1);

  apertura::cli::InfoOptions info;
  auto* info_cmd = app.add_subcommand("info", "Summarise a Measurement Set");
  info_cmd->add_option("path", info.path, "Measurement Set directory")->required();
  info_cmd->add_flag("--json", info.json, "Print the summary as JSON");

  apertura::cli::SimulateOptions simulate;
  auto* simulate_cmd = apertura::cli::addSimulateCommand(app, simulate);
  apertura::cli::DemoOptions demo;
  auto* demo_cmd = apertura::cli::addDemoCommand(app, demo);
  apertura::cli::DirtyOptions dirty;
  auto* dirty_cmd = apertura::cli::addDirtyCommand(app, dirty);

  apertura::cli::RunOptions run_options;
  auto* run_cmd = apertura::cli::addRunCommand(app, run_options);
  auto* plugins_cmd = apertura::cli::addPluginsCommand(app);
  auto* devices_cmd = apertura::cli::addDevicesCommand(app);

  CLI11_PARSE(app, argc, argv);

  // Past `ulimit -f` a write must fail with EFBIG, which the writers report and clean up after;
  // SIGXFSZ's default action would end the process and leave the temporaries.
  std::signal(SIGXFSZ, SIG_IGN);

  // SIGINT and SIGTERM (what batch schedulers send) stop the commands that write cooperatively,
  // so temporary Measurement Sets, spill and FITS files are removed on the way out. The others
  // (info, plugins, devices) write nothing and keep the default action: they end at once.
  if (*simulate_cmd || *demo_cmd || *dirty_cmd || *run_cmd)
    apertura::engine::installInterruptHandlers();
  if (*info_cmd)
    return apertura::cli::runInfo(info);
  if (*simulate_cmd)
    return apertura::cli::runSimulate(simulate);
  if (*demo_cmd)
    return apertura::cli::runDemo(demo);
  if (*dirty_cmd)
    return apertura::cli::runDirty(dirty);
  if (*run_cmd)
    return apertura::cli::runProject(run_options);
  if (*plugins_cmd)
    return apertura::cli::runPlugins();
  if (*devices_cmd)
    return apertura::cli::runDevices();
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  apertura::installAddressSpaceGuard();
  try {
    return run(argc, argv);
  } catch (const apertura::OperationCancelled&) {
    const int sig = apertura::engine::interruptSignal();
    std::cerr << "apertura-cli: interrupted; temporary files removed\n";
    const int status = 128 + (sig > 0 ? sig : SIGINT);
    if (apertura::cli::callAbandoned()) {
      // A worker still computes what nobody will read: end without running static destructors
      // under it (the temporaries are already gone: the unwinding removed them).
      std::cout.flush();
      std::_Exit(status);
    }
    return status;
  } catch (const std::bad_alloc&) {
    std::cerr << "apertura-cli: error: out of memory: the system (or a ulimit) refused an "
                 "allocation; try a smaller image or fewer channels\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "apertura-cli: error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "apertura-cli: error: unknown exception\n";
  }
  return 1;
}
