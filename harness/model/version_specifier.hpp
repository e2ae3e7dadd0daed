// PEP 440 versions and version ranges, read, ordered and matched as Python's packaging
// (26.x: packaging.version.Version, packaging.specifiers.SpecifierSet) reads, orders and
// matches them: ">=12.9,<13.5", "==12.9.*", "~=0.30", "!=13.4.0+local", "===1.0-custom".
//
// Versions: [N!]N(.N)*[{a|b|rc}N][.postN][.devN][+local], with every spelling packaging
// accepts (a leading v, alpha/beta/c/pre/preview, rev/r, "-1" for .post1, separators . _ -,
// implied zeros, any case, surrounding whitespace) and numbers of any length, as Python's
// ints. Order: epoch, release (trailing zeros dropped: 13.0 == 13), then .devN < aN < bN <
// rcN < release < .postN, with .devN before the release it belongs to and +local above its
// public version (strings before numbers in local parts).
//
// Ranges: clauses joined by commas, all of which must hold, each one of ==, !=, <, <=, >,
// >=, ~=, === and a version, with packaging's rules: == and != may end in .* (a prefix of
// release numbers) or carry +local; <V leaves out V's pre-releases unless V is one; >V
// leaves out V's post-releases and local versions; ~=X.Y is >=X.Y,==X.*; ===TEXT is the text
// itself (case aside). A version that is no PEP 440 version is in no range but a === one
// naming its text, as in packaging.
//
// Pre-releases (dev, a, b, rc): a version is matched as SpecifierSet(range).contains(v)
// matches it by default since packaging 26.0, which for one version is prereleases=True:
// 13.4.5.dev3 is in ">=12.9,<13.5". PEP 440 leaves pre-releases out only when choosing
// among candidates; a layer's version is the one installed, the only candidate. (packaging
// before 26.0 said False there; tests/inputs/pep440/table.json pins 26.x's answers.)
//
// hostcb is stricter than packaging in two ways, both refusals at load, never another
// answer: an empty range or clause (">=13.0,": packaging drops it) is refused as a typo,
// and so is a range no version is in ("<1.2.3,>1.2.3": SpecifierSet.is_unsatisfiable()),
// since an expectation under it never applies. === compares ASCII text: one with other
// characters is refused.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace hostcb {

// A whole number of any size, as its decimal digits without leading zeros ("0" for zero).
using Number = std::string;
int compare_numbers(const Number& a, const Number& b);  // -1, 0 or 1

class Version {
 public:
  // The version `text` names, or nullopt when packaging.version.Version(text) refuses it.
  static std::optional<Version> parse(const std::string& text);
  // The normalized form, as str(packaging.version.Version(text)): "1.0a1.post2.dev3+abc.7".
  std::string str() const;
  bool is_prerelease() const { return dev.has_value() || pre_kind >= 0; }

  Number epoch = "0";
  std::vector<Number> release;
  int pre_kind = -1;  // -1 none, 0 a, 1 b, 2 rc
  Number pre_number = "0";
  std::optional<Number> post, dev;
  struct LocalPart {
    bool is_number = false;
    std::string text;  // a Number, or letters and digits in lower case
  };
  std::optional<std::vector<LocalPart>> local;
};

int compare(const Version& a, const Version& b);  // -1, 0 or 1, in packaging's order

class VersionSpecifier {
 public:
  // Throws std::invalid_argument saying what is wrong, for text that is no range (or one
  // hostcb refuses: see above).
  static VersionSpecifier parse(const std::string& text);
  // SpecifierSet(text).contains(version), with packaging 26's default (see above).
  bool contains(const std::string& version) const;
  const std::string& text() const { return text_; }

  struct Clause {
    std::string op;       // ==, !=, <, <=, >, >=, ~= or ===
    std::string version;  // as written, less a trailing .*
    bool wildcard = false;
    std::optional<Version> parsed;  // nullopt only for a === text that is no version
  };

 private:
  bool holds_some_version() const;
  std::string text_;
  std::vector<Clause> clauses_;
};

// The numbers of a version made of numbers joined by dots only ("580.159.04" -> 580, 159,
// 4), of any length each, or nullopt for anything else: the driver and runtime bounds.
std::optional<std::vector<Number>> parse_release(const std::string& text);

}  // namespace hostcb
