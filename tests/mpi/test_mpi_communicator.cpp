// MpiCommunicator on 1, 2 and 3 ranks (run by mpirun, see CMakeLists.txt): sums equal the serial
// sums of every rank's contribution (bitwise in deterministic mode, to rounding otherwise, also
// for arrays cut into several pieces), deterministic sums repeat bit for bit, broadcast from any
// root, any(), the agreement on errors and an interrupt signal on one rank cancelling all.
// Every test function does its collectives first and checks afterwards, so that a failed check
// on one rank cannot leave the others waiting in a collective.
#include <mpi.h>
#include <QtTest>
#include <cmath>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "core/engine/interrupt.h"
#include "core/engine/mpi_communicator.h"
#include "core/engine/mpi_session.h"
#include "core/engine/rank_agreement.h"
#include "core/util/input_error.h"

using namespace apertura;
using namespace apertura::engine;

namespace {

int g_world_size = 0;     // MPI_COMM_WORLD's size as the MpiSession saw it
int g_thread_level = -1;  // what MPI_Init_thread provided

// Rank r's contribution: magnitudes spread over several decades so that the order of additions
// changes the rounding (a test of "same order" rather than "any order").
template <typename T>
std::vector<T> contribution(int rank, std::size_t n) {
  std::vector<T> v(n);
  const double scale = std::pow(10.0, rank % 3);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = static_cast<T>(scale * std::sin(0.37 * double(i) + 1.7 * rank) + 1e-3 * double(i % 7));
  return v;
}

// The serial reference: ((x0 + x1) + x2) + ... in T, rank order.
template <typename T>
std::vector<T> serialSum(int ranks, std::size_t n) {
  std::vector<T> s = contribution<T>(0, n);
  for (int r = 1; r < ranks; ++r) {
    const auto c = contribution<T>(r, n);
    for (std::size_t i = 0; i < n; ++i)
      s[i] += c[i];
  }
  return s;
}

template <typename T>
bool bitwiseEqual(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

template <typename T>
double worstRelative(const std::vector<T>& got, const std::vector<T>& want, int ranks) {
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double scale = 100.0 * ranks;  // bound of sum |x_r|
    worst = std::max(worst, std::abs(double(got[i]) - double(want[i])) / scale);
  }
  return worst;
}

}  // namespace

class TestMpiCommunicator : public QObject {
  Q_OBJECT
 private slots:
  void rankAndSize() {
    MpiCommunicator c;
    QCOMPARE(c.size(), g_world_size);
    QVERIFY(c.rank() >= 0 && c.rank() < c.size());
    QVERIFY(!c.deterministic());
    QVERIFY(MpiCommunicator(true).deterministic());
    QVERIFY(g_thread_level >= MPI_THREAD_FUNNELED);
  }

  // The collectives from another thread than main(), one at a time (MPI_THREAD_SERIALIZED), as
  // when the pipeline runs on the engine's worker thread.
  void collectivesFromAWorkerThread() {
    int level = 0;
    MPI_Query_thread(&level);
    std::vector<double> d;
    std::thread worker([&] {
      MpiCommunicator c(true);
      d = contribution<double>(c.rank(), 1000);
      c.sum(d.data(), d.size());
    });
    worker.join();
    QVERIFY(level >= MPI_THREAD_SERIALIZED);
    QVERIFY(bitwiseEqual(d, serialSum<double>(g_world_size, 1000)));
  }

  void sumsEqualSerialSums_data() {
    QTest::addColumn<bool>("deterministic");
    QTest::addColumn<qulonglong>("n");
    for (bool det : {false, true}) {
      // 5e6 doubles (40 MB) are cut into two pieces by the deterministic gather budget.
      for (qulonglong n : {0ull, 1ull, 1000ull, 5000000ull}) {
        QTest::newRow(
            qPrintable(QString("%1 n=%2").arg(det ? "deterministic" : "allreduce").arg(n)))
            << det << n;
      }
    }
  }

  void sumsEqualSerialSums() {
    QFETCH(bool, deterministic);
    QFETCH(qulonglong, n);
    MpiCommunicator c(deterministic);
    auto d = contribution<double>(c.rank(), n);
    c.sum(d.data(), d.size());
    auto f = contribution<float>(c.rank(), n);
    c.sum(f.data(), f.size());
    const auto want_d = serialSum<double>(c.size(), n);
    const auto want_f = serialSum<float>(c.size(), n);
    if (deterministic || c.size() == 1) {
      QVERIFY(bitwiseEqual(d, want_d));
      QVERIFY(bitwiseEqual(f, want_f));
    } else {
      QVERIFY2(worstRelative(d, want_d, c.size()) < 1e-14,
               qPrintable(QString::number(worstRelative(d, want_d, c.size()))));
      QVERIFY2(worstRelative(f, want_f, c.size()) < 1e-6,
               qPrintable(QString::number(worstRelative(f, want_f, c.size()))));
    }
  }

  void deterministicSumsRepeatBitForBit() {
    MpiCommunicator c(true);
    const std::size_t n = 200000;
    std::vector<std::vector<float>> runs;
    for (int k = 0; k < 3; ++k) {
      auto f = contribution<float>(c.rank(), n);
      c.sum(f.data(), n);
      runs.push_back(std::move(f));
    }
    QVERIFY(bitwiseEqual(runs[0], runs[1]));
    QVERIFY(bitwiseEqual(runs[0], runs[2]));
  }

  void broadcastFromEveryRoot() {
    MpiCommunicator c;
    std::vector<std::vector<std::uint32_t>> got;
    for (int root = 0; root < c.size(); ++root) {
      std::vector<std::uint32_t> buf(1000, 0);
      if (c.rank() == root) {
        for (std::size_t i = 0; i < buf.size(); ++i)
          buf[i] = static_cast<std::uint32_t>(root * 100000 + i);
      }
      c.broadcast(buf.data(), buf.size() * sizeof(std::uint32_t), root);
      got.push_back(std::move(buf));
    }
    for (int root = 0; root < c.size(); ++root) {
      for (std::size_t i = 0; i < 1000; ++i)
        QCOMPARE(got[std::size_t(root)][i], std::uint32_t(root * 100000 + i));
    }
    char x = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.broadcast(&x, 1, c.size()));
  }

  void anyIsTrueEverywhereWhenOneRankSaysSo() {
    MpiCommunicator c;
    const bool last = c.any(c.rank() == c.size() - 1);
    const bool first = c.any(c.rank() == 0);
    const bool none = c.any(false);
    const bool all = c.any(true);
    QVERIFY(last);
    QVERIFY(first);
    QVERIFY(!none);
    QVERIFY(all);
  }

  void errorsReachEveryRank() {
    MpiCommunicator c;
    // Every rank but 0 fails: all learn rank 1's message (rank 0 alone when size is 1).
    const auto some = firstErrorOnAnyRank(
        c, c.rank() >= 1
               ? std::optional<std::string>("disk full on rank " + std::to_string(c.rank()))
               : std::nullopt);
    const auto none = firstErrorOnAnyRank(c, std::nullopt);
    std::string caught;
    bool own_type = false;
    try {
      runOnEveryRank(c, [&] {
        if (c.rank() == c.size() - 1)
          throw InputError("x.ms", "no DATA column");
      });
    } catch (const InputError& e) {
      own_type = true;
      caught = e.what();
    } catch (const std::runtime_error& e) {
      caught = e.what();
    }
    c.barrier();
    QVERIFY(!none);
    if (c.size() == 1) {
      QVERIFY(!some);
    } else {
      QVERIFY(some.has_value());
      QCOMPARE(some->rank, 1);
      QCOMPARE(some->message, std::string("disk full on rank 1"));
    }
    const int last = c.size() - 1;
    QCOMPARE(own_type, c.rank() == last);
    if (c.rank() == last)
      QCOMPARE(caught, std::string("x.ms: no DATA column"));
    else
      QCOMPARE(caught, "rank " + std::to_string(last) + ": x.ms: no DATA column");
  }

  // SIGINT on the last rank only (the MpiSession installed the handlers): every rank sees the
  // cancellation at the next checkpoint; once cleared, none does.
  void interruptOnOneRankCancelsAll() {
    MpiCommunicator c;
    clearInterrupt();
    const bool before = cancelRequestedOnAnyRank(c, nullptr);
    if (c.rank() == c.size() - 1)
      std::raise(SIGINT);
    const bool during = cancelRequestedOnAnyRank(c, nullptr);
    clearInterrupt();
    c.barrier();
    const bool after = cancelRequestedOnAnyRank(c, nullptr);
    CancellationToken token;
    if (c.rank() == 0)
      token.cancel();
    const bool by_token = cancelRequestedOnAnyRank(c, &token);
    QVERIFY(!before);
    QVERIFY(during);
    QVERIFY(!after);
    QVERIFY(by_token);
  }
};

int main(int argc, char** argv) {
  MpiSessionOptions options;
  options.serialized = true;
  MpiSession session(argc, argv, options);
  g_world_size = session.size();
  g_thread_level = session.threadLevel();
  QCoreApplication app(argc, argv);
  TestMpiCommunicator test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_mpi_communicator.moc"
