// Plugin discovery and refusal: the two example plugins load from the build tree; a plugin with
// another interface version and a library that is not a plugin are refused with clear messages,
// and the application carries on.
#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>
#include <string>

#include <sys/stat.h>

#include "core/pipeline/objective_weights.h"
#include "core/pipeline/regularizer_factory.h"
#include "core/plugin/plugin_registry.h"
#include "core/rml/objective_scales.h"
#include "core/util/input_error.h"

using namespace apertura;
using namespace apertura::plugin;

namespace {

std::string pluginDir() {
  const char* env = std::getenv("APERTURA_PLUGIN_PATH");
  return env ? env : "";
}

}  // namespace

class TestPluginLoading : public QObject {
  Q_OBJECT
 private slots:
  void examplePluginsLoadFromTheBuildTree() {
    QVERIFY2(!pluginDir().empty(), "APERTURA_PLUGIN_PATH is not set");
    const PluginRegistry& registry = PluginRegistry::global();
    QVERIFY(registry.searchPath().front() == pluginDir());
    // Later directories (the user's, the installed one) may hold more: only the build tree's
    // plugins are checked, and they come first.
    for (const auto& r : registry.refused())
      QVERIFY2(r.path.rfind(pluginDir(), 0) != 0, r.reason.c_str());
    QVERIFY(registry.plugins().size() >= 2);
    QCOMPARE(std::string(registry.plugins()[0].api->name), std::string("csv"));
    QCOMPARE(std::string(registry.plugins()[1].api->name), std::string("wavelet"));
    QVERIFY(registry.plugins()[1].path.rfind(pluginDir(), 0) == 0);

    const RegularizerEntry wavelet = registry.findRegularizer("wavelet");
    QVERIFY(wavelet.api != nullptr);
    QCOMPARE(std::string(wavelet.plugin->api->name), std::string("wavelet"));
    QVERIFY(wavelet.api->prox != nullptr);
    QCOMPARE(wavelet.api->num_parameters, std::size_t(4));
    QCOMPARE(std::string(wavelet.api->parameters[0].name), std::string("scales"));
    QCOMPARE(wavelet.api->parameters[0].default_value, 4.0);
    QVERIFY(registry.findRegularizer("l1").api == nullptr);  // built-ins are not plugins
    // Plugin terms with a prox go to proximal solvers like the built-in non-smooth ones.
    QVERIFY(pipeline::isNonSmoothType("wavelet"));
    QVERIFY(!pipeline::isNonSmoothType("tsv"));
    // The CSV reader claims CSV files by their header only.
    QVERIFY(registry.findReader(std::string(__FILE__)).api == nullptr);

    // The wavelet term declares itself L1-like (degree 1, no image differences): on the
    // normalised objective its lambda scale is L1's, not TSV's.
    QCOMPARE(regularizerScale(*wavelet.plugin->api, 0).flux_power, 1);
    QCOMPARE(regularizerScale(*wavelet.plugin->api, 0).beam_power, 0.0);
    pipeline::ObjectiveWeights w;
    w.normalised = true;
    w.scales = rml::normalisedScales({1000, 4.0e6, 1.0, 20.0, 0.0});
    QCOMPARE(w.fixedScale("wavelet"), w.fixedScale("l1"));
    QVERIFY(w.fixedScale("wavelet") != w.fixedScale("tsv"));
  }

  // A description declares how each regularizer is normalised, or leaves it (NULL, or a
  // description of the size before regularizer_scales was appended): then it is as L1.
  void regularizerScalesAreReadAndChecked() {
    AperturaRegularizerV1 r[2] = {};
    r[0].name = "a";
    r[1].name = "b";
    for (AperturaRegularizerV1& x : r) {
      x.create = [](int, int, const double*, char*, size_t) -> void* { return nullptr; };
      x.destroy = [](void*) {};
      x.evaluate = [](void*, const double*, double*, double, double*, char*, size_t) { return 0; };
    }
    AperturaPluginV2 api{};
    api.abi_version = APERTURA_PLUGIN_ABI_VERSION;
    api.descriptor_size = sizeof(AperturaPluginV2);
    api.magic = APERTURA_PLUGIN_MAGIC;
    api.name = "scaled";
    api.regularizers = r;
    api.num_regularizers = 2;
    QCOMPARE(validatePluginDescription(api), std::string());
    QCOMPARE(regularizerScale(api, 1).flux_power, 1);  // none declared
    QCOMPARE(regularizerScale(api, 1).beam_power, 0.0);

    AperturaTermScaleV1 scales[2] = {{1, 0.5}, {2, 1.0}};
    api.regularizer_scales = scales;
    QCOMPARE(validatePluginDescription(api), std::string());
    QCOMPARE(regularizerScale(api, 0).beam_power, 0.5);
    QCOMPARE(regularizerScale(api, 1).flux_power, 2);
    QCOMPARE(regularizerScale(api, 1).beam_power, 1.0);

    // Built before the member existed: accepted, and the member (past its end) is never read.
    api.descriptor_size = APERTURA_PLUGIN_V2_BASE_SIZE;
    QCOMPARE(validatePluginDescription(api), std::string());
    QCOMPARE(regularizerScale(api, 1).flux_power, 1);
    api.descriptor_size = APERTURA_PLUGIN_V2_BASE_SIZE + 4;  // neither layout
    QVERIFY(validatePluginDescription(api).find("without regularizer_scales") != std::string::npos);

    api.descriptor_size = sizeof(AperturaPluginV2);
    scales[1].flux_power = 3;
    const std::string bad = validatePluginDescription(api);
    QVERIFY2(bad.find("regularizer 'b': regularizer_scales gives flux_power 3") == 0, bad.c_str());
    scales[1] = {2, -1.0};
    QVERIFY(!validatePluginDescription(api).empty());
  }

  void wrongInterfaceVersionIsRefused() {
    const PluginLoadResult r = loadPlugin(APERTURA_BAD_ABI_PLUGIN);
    QVERIFY(!r.ok());
    QCOMPARE(r.error, std::string(APERTURA_BAD_ABI_PLUGIN) +
                          ": plugin interface version 99, Apertura supports 2 (rebuild the "
                          "plugin against this Apertura's plugin_api.h)");
  }

  // A damaged library crashed the CLI and the GUI at start (issue #33): it is tried in a test
  // process, refused with the signal, and this process carries on.
  void crashingPluginIsRefusedNotFatal() {
    const PluginLoadResult r = loadPlugin(APERTURA_CRASHING_PLUGIN);
    QVERIFY(!r.ok());
    QVERIFY2(
        r.error.find("crashed while loading in a test process (signal 11") != std::string::npos,
        r.error.c_str());
  }

  // Code anyone could have replaced is not run.
  void worldWritableLocationsAreRefused() {
    QTemporaryDir dir;
    const std::string open_dir = dir.filePath("open").toStdString();
    QVERIFY(QDir().mkpath(QString::fromStdString(open_dir)));
    const std::string source = pluginDir() + "/apertura_wavelet_plugin.so";
    QVERIFY2(QFile::exists(QString::fromStdString(source)), source.c_str());
    const std::string copy = open_dir + "/apertura_wavelet_plugin.so";
    QVERIFY(QFile::copy(QString::fromStdString(source), QString::fromStdString(copy)));
    ::chmod(open_dir.c_str(), 0777);
    PluginRegistry open({open_dir});
    QCOMPARE(open.plugins().size(), std::size_t(0));
    QCOMPARE(open.refused().size(), std::size_t(1));
    QVERIFY2(
        open.refused()[0].reason.find("is writable by every user; not loaded") != std::string::npos,
        open.refused()[0].reason.c_str());
    ::chmod(open_dir.c_str(), 01777);  // sticky, like /tmp: our own file may stay
    QCOMPARE(PluginRegistry({open_dir}).plugins().size(), std::size_t(1));
    ::chmod(open_dir.c_str(), 0755);
    ::chmod(copy.c_str(), 0666);
    const PluginRegistry file({open_dir});
    QCOMPARE(file.plugins().size(), std::size_t(0));
    QVERIFY(file.refused()[0].reason.find("the file is writable by every user") !=
            std::string::npos);
  }

  void libraryWithoutEntryIsRefused() {
    const PluginLoadResult r = loadPlugin(APERTURA_NOT_A_PLUGIN);
    QVERIFY(!r.ok());
    QCOMPARE(r.error, std::string(APERTURA_NOT_A_PLUGIN) +
                          ": not an Apertura plugin (no symbol apertura_plugin_entry)");
  }

  void missingOrBrokenFilesAreRefused() {
    const PluginLoadResult missing = loadPlugin("/nonexistent/libx.so");
    QVERIFY(!missing.ok());
    QVERIFY2(missing.error.rfind("/nonexistent/libx.so: cannot be loaded (", 0) == 0,
             missing.error.c_str());
    // A text file named like a library.
    QTemporaryDir dir;
    const std::string fake = dir.path().toStdString() + "/libfake.so";
    QFile f(QString::fromStdString(fake));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("this is not an ELF file\n");
    f.close();
    const PluginLoadResult bad = loadPlugin(fake);
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error.rfind(fake + ": cannot be loaded (", 0) == 0, bad.error.c_str());
  }

  void registryKeepsGoodPluginsAndListsRefusedOnes() {
    // Good directory twice (loaded once), then the directory with the two broken libraries.
    const PluginRegistry registry({pluginDir(), pluginDir(), APERTURA_BAD_PLUGIN_DIR});
    QCOMPARE(registry.plugins().size(), std::size_t(2));
    QCOMPARE(registry.refused().size(), std::size_t(2));
    QVERIFY(registry.refused()[0].reason.find("plugin interface version 99") != std::string::npos);
    QVERIFY(registry.refused()[1].reason.find("no symbol apertura_plugin_entry") !=
            std::string::npos);
    QCOMPARE(registry.searchPathText(),
             pluginDir() + ":" + pluginDir() + ":" + APERTURA_BAD_PLUGIN_DIR);
  }

  void descriptionsAreValidated() {
    AperturaPluginV2 api{};
    api.abi_version = APERTURA_PLUGIN_ABI_VERSION;
    api.name = "x";
    // The size and the magic number are checked before any pointer is followed.
    QVERIFY(validatePluginDescription(api).find("its description is 0 bytes, expected") == 0);
    api.descriptor_size = sizeof(AperturaPluginV2);
    QVERIFY(validatePluginDescription(api).find("lacks Apertura's magic number") !=
            std::string::npos);
    api.magic = APERTURA_PLUGIN_MAGIC;
    QCOMPARE(validatePluginDescription(api),
             std::string("provides no regularizers, readers or optimizers"));
    api.num_readers = std::size_t(1) << 40;  // garbage where a count should be
    QVERIFY(validatePluginDescription(api).find("a damaged description") != std::string::npos);
    api.num_readers = 0;
    AperturaParameterV1 p{"alpha", 5.0, 0.0, 1.0, "out of range default"};
    AperturaRegularizerV1 r{};
    r.name = "r";
    QCOMPARE((api.regularizers = &r, api.num_regularizers = 1, validatePluginDescription(api)),
             std::string("regularizer 'r' lacks create(), destroy() or evaluate()"));
    r.create = [](int, int, const double*, char*, size_t) -> void* { return nullptr; };
    r.destroy = [](void*) {};
    r.evaluate = [](void*, const double*, double*, double, double*, char*, size_t) { return 0; };
    r.parameters = &p;
    r.num_parameters = 1;
    QCOMPARE(validatePluginDescription(api),
             std::string("regularizer 'r': default of parameter 'alpha' is outside its range"));
    p.default_value = 0.5;
    QCOMPARE(validatePluginDescription(api), std::string());
    // A description without a terminator within 4096 bytes is refused, not printed.
    const std::string long_text(5000, 'd');
    api.description = long_text.c_str();
    QVERIFY(validatePluginDescription(api).find("has no terminator within 4096 bytes") !=
            std::string::npos);
    api.description = "short";
    // A name with no terminator in reach is a damaged table, not a name to print.
    const std::string long_name(300, 'n');
    api.name = long_name.c_str();
    QCOMPARE(validatePluginDescription(api),
             std::string("the plugin has no name, or one of 256 bytes or more"));
  }

  void missingPluginRegularizerSaysSo() {
    project::RegularizerSettings s;
    s.type = "curvelet";
    s.lambda = 1.0;
    try {
      pipeline::makeRegularizer(s, 8, 8, {}, 2);
      QFAIL("no exception");
    } catch (const InputError& e) {
      const std::string what = e.what();
      QVERIFY2(what.rfind("regularizers[2].type: unknown regularizer 'curvelet'", 0) == 0,
               what.c_str());
      QVERIFY2(what.find("plugin is not loaded (searched: " + pluginDir()) != std::string::npos,
               what.c_str());
    }
    // Unknown parameter and out-of-range value of a plugin term.
    s.type = "wavelet";
    s.parameters = {{"levels", 3.0}};
    QVERIFY_THROWS_EXCEPTION(InputError, pipeline::makeRegularizer(s, 8, 8, {}, 0));
    s.parameters = {{"scales", 42.0}};
    try {
      pipeline::makeRegularizer(s, 8, 8, {}, 0);
      QFAIL("no exception");
    } catch (const InputError& e) {
      QCOMPARE(std::string(e.what()),
               std::string("regularizers[0].parameters.scales: must lie in [1, 10], got 42"));
    }
  }
};

QTEST_GUILESS_MAIN(TestPluginLoading)
#include "test_plugin_loading.moc"
