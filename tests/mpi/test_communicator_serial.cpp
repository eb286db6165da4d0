// The single-process communicator and the collective helpers built on Communicator, without MPI:
// a serial run must see rank 0 of 1, sums that leave the data alone, and errors/cancellation
// reported exactly as a distributed run reports them.
#include <QtTest>
#include <csignal>
#include <cstring>
#include <stdexcept>

#include "core/engine/communicator.h"
#include "core/engine/interrupt.h"
#include "core/engine/rank_agreement.h"
#include "core/util/input_error.h"

using namespace apertura;
using namespace apertura::engine;

class TestCommunicatorSerial : public QObject {
  Q_OBJECT
 private slots:
  void singleProcessIsRankZeroOfOne() {
    Communicator& c = singleProcessCommunicator();
    QCOMPARE(c.rank(), 0);
    QCOMPARE(c.size(), 1);
    // An ordinary run: the deterministic reduction's exact per-chunk sums cost time.
    QVERIFY(!c.deterministic());
    QCOMPARE(&c, &singleProcessCommunicator());
    Communicator& exact = deterministicSingleProcessCommunicator();
    QVERIFY(exact.deterministic());
    QCOMPARE(exact.size(), 1);
    QCOMPARE(exact.rank(), 0);
    std::vector<double> d = {1.5, -2.25, 1e300};
    const auto before = d;
    c.sum(d.data(), d.size());
    QCOMPARE(d, before);
    std::vector<float> f = {3.0f, 0.1f};
    c.sum(f.data(), f.size());
    QCOMPARE(f, (std::vector<float>{3.0f, 0.1f}));
    char text[] = "unchanged";
    c.broadcast(text, sizeof text, 0);
    QCOMPARE(std::strcmp(text, "unchanged"), 0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.broadcast(text, sizeof text, 1));
    QVERIFY(c.any(true));
    QVERIFY(!c.any(false));
    c.barrier();
  }

  void errorsAreAgreedOn() {
    Communicator& c = singleProcessCommunicator();
    QVERIFY(!firstErrorOnAnyRank(c, std::nullopt));
    const auto e = firstErrorOnAnyRank(c, std::string("disk full"));
    QVERIFY(e.has_value());
    QCOMPARE(e->rank, 0);
    QCOMPARE(e->message, std::string("disk full"));
    // The failing rank rethrows its own exception, type and message intact.
    try {
      runOnEveryRank(c, [] { throw InputError("a.ms", "no DATA column"); });
      QFAIL("expected InputError");
    } catch (const InputError& err) {
      QCOMPARE(err.problem(), std::string("no DATA column"));
    }
    int calls = 0;
    runOnEveryRank(c, [&] { ++calls; });
    QCOMPARE(calls, 1);
  }

  void cancellationFromTokenOrSignal() {
    Communicator& c = singleProcessCommunicator();
    clearInterrupt();
    CancellationToken token;
    QVERIFY(!cancelRequestedOnAnyRank(c, &token));
    QVERIFY(!cancelRequestedOnAnyRank(c, nullptr));
    token.cancel();
    QVERIFY(cancelRequestedOnAnyRank(c, &token));
    token.reset();
    installInterruptHandlers();
    std::raise(SIGINT);  // handled: sets the flag instead of ending the test
    QVERIFY(interruptRequested());
    QVERIFY(cancelRequestedOnAnyRank(c, &token));
    clearInterrupt();
    QVERIFY(!cancelRequestedOnAnyRank(c, &token));
    std::raise(SIGTERM);  // what mpirun sends every rank on Ctrl-C
    QVERIFY(cancelRequestedOnAnyRank(c, nullptr));
    clearInterrupt();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    std::signal(SIGUSR1, SIG_DFL);
  }
};

QTEST_GUILESS_MAIN(TestCommunicatorSerial)
#include "test_communicator_serial.moc"
