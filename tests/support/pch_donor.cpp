// Owns the precompiled Qt Test headers that the tests of one folder reuse (tests/CMakeLists.txt).
int main() {
  return 0;
}
