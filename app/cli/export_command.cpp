// attnscope-cli export: the app's heatmap rendering, headless (QT_QPA_PLATFORM=offscreen when
// there is no display), of a translation, of an attention file another tool wrote (--from), or of
// the snapshots a training run recorded (--snapshots: a figure or an animated GIF), or of a beam
// search as a tree (--beam-tree: the app's Beam view, or its JSON). A build
// without the UI (-DATTNSCOPE_BUILD_UI=OFF, no Qt) keeps the command and its options, and says
// what it needs.
#include <attnscope/attention_file.h>
#include <attnscope/model_catalog.h>
#include <attnscope/text.h>
#include <attnscope/training_snapshots.h>
#include <attnscope/translator.h>

#include <cctype>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>

#include "cli/command.h"

#ifdef ATTNSCOPE_WITH_UI
#include <QApplication>
#include <QFileInfo>

#include "cli/headless_application.h"
#include "core/attention_matrix.h"
#include "plots/beam_tree_plot.h"
#include "plots/heatmap_plot.h"
#include "render/exporter.h"
#include "render/snapshot_timeline.h"
#endif

namespace attnscope::cli {
namespace {

struct ExportCommand {
  std::string score = "additive";
  std::string pair = kDefaultLanguagePair;
  std::string model;
  std::string out;
  std::string reference;
  int width = 0, height = 0;
  std::string title;  // drawn above the picture; empty: none
  int threads = 0;
  UnknownWords unknown_words = UnknownWords::kCopy;
  int layer = 0;        // 1-based; 0: the last
  std::string head;     // a 1-based number, "mean" or "all"; empty: "mean"
  bool pieces = false;  // subword models: the pieces, not words (pieces merged)
  std::vector<std::string> sentence;
  std::string from;  // an attention file instead of a model and a sentence
  std::string format;
  AttentionFileOptions file;
  std::string snapshots;          // a training run's snapshots instead of one matrix
  int frames = 0;                 // --snapshots: how many; 0: the format's default
  int delay = 0;                  // --snapshots to .gif: ms per frame; 0: the default
  bool beam_tree = false;         // the sentence's beam search as a tree instead of a heatmap
  int beam = 5;                   // --beam-tree's beam size
  float length_penalty = -1.0f;   // GNMT alpha; unset (< 0): log P / length, as translate
  float coverage_penalty = 0.0f;  // GNMT beta
};

// --snapshots defaults, told in --help also where the UI (which applies them) is not built.
constexpr int kDefaultPanels = 6, kDefaultGifFrames = 100, kHoldSeconds = 2;

// What CLI11 cannot say by itself: a sentence is needed unless --from or --snapshots gives
// the matrices.
void check_arguments(const ExportCommand& c) {
  if (c.beam_tree) {
    if (c.score == "all")
      throw std::invalid_argument(
          "--beam-tree draws one model's search: give --score NAME or --model FILE, not --score "
          "all");
    std::string sentence;
    for (const auto& word : c.sentence) sentence += word;
    if (sentence.find_first_not_of(" \t\r\n") == std::string::npos)
      throw std::invalid_argument(
          "export --beam-tree needs the English sentence whose beam search to draw");
    return;
  }
  if (c.from.empty() && c.snapshots.empty() && c.sentence.empty())
    throw std::invalid_argument(
        "export needs the English sentence to translate, --from FILE (an attention file) or "
        "--snapshots FILE (a training run's snapshots)");
}

#ifndef ATTNSCOPE_WITH_UI
int run(const ExportCommand&) {
  throw std::runtime_error(
      "export needs the desktop build: this attnscope-cli was built without the UI "
      "(cmake -DATTNSCOPE_BUILD_UI=OFF); build with Qt to render heatmaps");
}
#else
static_assert(kDefaultPanels == ui::kDefaultTimelinePanels &&
              kDefaultGifFrames == ui::kDefaultTimelineFrames &&
              kHoldSeconds * 1000 == ui::kTimelineHoldMs);

struct View {
  std::string title;
  AttentionChoice choice;
};

// Which attention of `t` to draw: the model's one matrix, or for a model with several layers
// and heads the layer and head(s) asked for, each titled with what it shows.
std::vector<View> views_of(const Translation& t, const ExportCommand& c, const std::string& name) {
  const bool chosen = c.layer != 0 || !c.head.empty();
  if (t.head_attention.empty()) {
    if (chosen)
      throw std::invalid_argument("--layer/--head: model '" + name +
                                  "' has one attention matrix, not several layers or heads");
    return {{name, {}}};
  }
  const int layer = c.layer == 0 ? t.layers() : c.layer;
  if (layer < 1 || layer > t.layers())
    throw std::invalid_argument("--layer " + std::to_string(c.layer) + ": model '" + name +
                                "' has " + std::to_string(t.layers()) + " layers");
  const std::string prefix = name + " · layer " + std::to_string(layer);
  if (c.head.empty() || c.head == "mean") return {{prefix + " · mean of heads", {layer - 1, -1}}};
  std::vector<View> views;
  for (int head = 1; head <= t.heads(); ++head)
    if (c.head == "all" || c.head == std::to_string(head))
      views.push_back({prefix + " · head " + std::to_string(head), {layer - 1, head - 1}});
  if (views.empty())
    throw std::invalid_argument("--head " + c.head + ": model '" + name + "' has " +
                                std::to_string(t.heads()) +
                                " heads per layer (use 1 to that, 'mean' or 'all')");
  return views;
}

using ModelList = std::vector<std::pair<std::string, std::string> >;  // title, path

// The models to translate with: --model, every installed one of --pair (--score all), or
// --score's.
ModelList models_to_export(const ExportCommand& c) {
  ModelList models;
  if (!c.model.empty())
    models.emplace_back(QFileInfo(QString::fromStdString(c.model)).completeBaseName().toStdString(),
                        c.model);
  else if (c.score == "all")
    for (const auto& name : score_function_names()) {
      if (const std::string path = find_usable_model(name, c.pair); !path.empty())
        models.emplace_back(shipped_model_name(name, c.pair), path);
    }
  else
    models.emplace_back(shipped_model_name(c.score, c.pair), resolve_model(c.score, c.pair));
  if (models.empty()) throw std::runtime_error("no installed " + c.pair + " models to export");
  return models;
}

bool is_gif(const std::string& path) {
  return QFileInfo(QString::fromStdString(path)).suffix().toLower() == QLatin1String("gif");
}

// --snapshots: small multiples (.png, .svg, .pdf) or an animation (.gif) of the probe heatmap.
int export_snapshots(const ExportCommand& c) {
  const QString out = QString::fromStdString(c.out);
  if (!ui::isTimelinePath(out))
    throw std::invalid_argument("cannot export to '" + c.out +
                                "': unknown file type for --snapshots (use .png, .pdf, .svg or "
                                ".gif)");
  if (c.delay != 0 && !is_gif(c.out))
    throw std::invalid_argument("--delay: only an animation has a frame delay, and '" + c.out +
                                "' is not a .gif");
  check_output_path(c.out, {c.snapshots});
  // Read before Qt starts, so the file's errors come first.
  const std::vector<TrainingSnapshot> snapshots = read_snapshots(c.snapshots);
  const auto app = headless_application();
  ui::TimelineOptions options;
  options.frames = c.frames;
  if (c.delay != 0) options.delayMs = c.delay;
  options.size = QSize(c.width, c.height);  // 0: the default's side
  ui::exportTimeline(snapshots, out, options);
  return 0;
}

// --beam-tree: the sentence's recorded search, drawn as the app's Beam view draws it (.png, .svg,
// .pdf) or written as translate --beam-tree's JSON line (.json).
int export_beam_tree(const ExportCommand& c) {
  const QString out = QString::fromStdString(c.out);
  const auto format = ui::exportFormatFor(out);
  if (!format || *format == ui::ExportFormat::Csv)
    throw std::invalid_argument("cannot export to '" + c.out +
                                "': unknown file type for --beam-tree (use .png, .pdf, .svg or "
                                ".json)");
  // The model is read and the search run before Qt starts, so their errors come first.
  const auto models = models_to_export(c);
  check_output_path(c.out, {models.front().second});
  std::string sentence;
  for (const auto& word : c.sentence) sentence += (sentence.empty() ? "" : " ") + word;
  TranslationOptions options;
  options.beam_size = c.beam;
  options.gnmt_alpha = c.length_penalty;
  options.coverage_penalty = c.coverage_penalty;
  options.unknown_words = c.unknown_words;
  BeamTree tree;
  // Decoded as the app and translate --beam-tree decode one sentence (int8 output weights), so
  // the three give the same tree.
  Translator(models.front().second, OutputWeights::kInt8)
      .translate_with_tree(sentence, options, tree);
  if (tree.nodes.empty())
    throw std::invalid_argument("export --beam-tree: the sentence '" + sentence +
                                "' has no token to search from");
  const auto app = headless_application();
  ui::BeamTreePlot plot;
  plot.setTree(tree);
  ui::ExportOptions picture;
  picture.size = QSize(c.width, c.height);  // 0: the tree's laid-out size, or its shape kept
  plot.exportTo(out, picture);
  return 0;
}

int run(const ExportCommand& c) {
  if (!c.snapshots.empty()) return export_snapshots(c);
  if (c.beam_tree) return export_beam_tree(c);
  if (!ui::exportFormatFor(QString::fromStdString(c.out)))
    throw std::invalid_argument("cannot export to '" + c.out +
                                "': unknown file type (use .png, .pdf, .svg, .csv or .json" +
                                (is_gif(c.out) ? "; .gif only with --snapshots)" : ")"));
  // The input is read (or the models found) before Qt starts, so its errors come first.
  std::optional<AttentionFile> file;
  ModelList models;
  if (!c.from.empty()) {
    check_output_path(c.out, {c.from});
    AttentionFileOptions options = c.file;
    if (!c.format.empty()) options.format = attention_format_from_name(c.format);
    file = read_attention_file(c.from, options);
  } else {
    models = models_to_export(c);
    std::vector<std::string> inputs;
    for (const auto& model : models) inputs.push_back(model.second);
    check_output_path(c.out, inputs);
  }
  const auto app = headless_application();
  std::vector<std::unique_ptr<ui::HeatmapPlot> > owned;
  QList<ui::HeatmapPlot*> plots;
  const auto add_plot = [&](const ui::AttentionMatrix& matrix) {
    owned.push_back(std::make_unique<ui::HeatmapPlot>());
    owned.back()->setMatrix(matrix);
    plots << owned.back().get();
  };
  if (file) add_plot(ui::AttentionMatrix::fromAttentionFile(*file));
  std::string sentence;
  for (const auto& word : c.sentence) sentence += (sentence.empty() ? "" : " ") + word;
  for (const auto& [title, path] : models) {
    const Translator translator(path, OutputWeights::kInt8);  // as the app decodes it
    if (!c.reference.empty()) check_forced_target(translator, c.reference, "--reference");
    TranslationOptions decoding;
    decoding.unknown_words = c.unknown_words;
    const Translation t = c.reference.empty()
                              ? translator.translate(sentence, decoding)
                              : translator.force_decode(sentence, c.reference, c.unknown_words);
    for (const View& view : views_of(t, c, title)) {
      ui::AttentionMatrix matrix = ui::AttentionMatrix::fromTranslation(
          t, QString::fromStdString(view.title), {view.choice, !c.pieces});
      matrix.title = matrix.nameWithView(matrix.title);  // as the app's titles, says the view
      add_plot(matrix);
    }
  }
  if (plots.size() > 1) ui::HeatmapPlot::shareDataRange(plots);
  ui::ExportOptions options;
  // The compare grid, or every head of a layer side by side.
  const bool grid = plots.size() > 1;
  options.size = grid ? QSize(1500, 900) : QSize(900, 700);
  // A squarish grid: four heads as 2 × 2, six score functions as 3 × 2.
  options.columns = std::max(1, static_cast<int>(std::ceil(std::sqrt(plots.size()))));
  if (c.width > 0) options.size.setWidth(c.width);
  if (c.height > 0) options.size.setHeight(c.height);
  options.title = QString::fromStdString(printable(c.title));
  ui::exportHeatmaps(plots, QString::fromStdString(c.out), options);
  return 0;
}
#endif  // ATTNSCOPE_WITH_UI

}  // namespace

Action add_export_command(CLI::App& app) {
  auto c = std::make_shared<ExportCommand>();
  std::vector<std::string> choices = score_function_names();
  choices.push_back("all");
  auto* score = app.add_option("--score", c->score, "score function, or 'all' for the compare grid")
                    ->check(CLI::IsMember(choices));
  auto* model = app.add_option("--model", c->model, "model file")->excludes(score);
  auto* pair = add_pair_option(app, c->pair)->excludes(model);
  app.add_option("--out", c->out,
                 "output file: .png, .pdf, .svg, .csv or .json; with --snapshots .png, .pdf, .svg "
                 "or .gif; with --beam-tree .png, .pdf, .svg or .json")
      ->required();
  auto* reference = app.add_option("--reference", c->reference,
                                   "force-decode this target sentence instead of translating");
  auto* layer =
      app.add_option("--layer", c->layer,
                     "models with several layers: which one (1 = first; default: the last)")
          ->check(CLI::Range(1, 1000));
  auto* head =
      app.add_option("--head", c->head,
                     "models with several heads: a head (1 = first), 'mean' (default) or 'all' "
                     "(every head of the layer side by side)");
  auto* pieces = app.add_flag("--pieces", c->pieces,
                              "subword models: draw the pieces the model reads and emits "
                              "(default: words, a word's pieces merged, as in the app)");
  app.add_option("--width", c->width,
                 "picture width in pixels (a .gif's: each frame's; --beam-tree: default the "
                 "tree's, its shape kept)")
      ->check(CLI::Range(16, 20000));
  app.add_option("--height", c->height, "picture height in pixels (a .gif's: each frame's)")
      ->check(CLI::Range(16, 20000));
  auto* title = app.add_option("--title", c->title,
                               "a title drawn above the picture (.png, .pdf, .svg), e.g. the "
                               "model, the language pair and the sentence");
  add_unknown_words_option(app, c->unknown_words);
  add_threads_option(app, c->threads);
  auto* sentence = app.add_option("sentence", c->sentence, "the English sentence");

  auto* from = app.add_option("--from", c->from,
                              "an attention file instead of a translation: attnscope JSON or CSV, "
                              "translate --json lines, Pharaoh links, Marian soft alignment");
  from->excludes(score)
      ->excludes(pair)
      ->excludes(model)
      ->excludes(reference)
      ->excludes(sentence)
      ->excludes(pieces);
  std::vector<std::string> formats;
  for (auto f : {AttentionFileFormat::Json, AttentionFileFormat::Csv, AttentionFileFormat::Pharaoh,
                 AttentionFileFormat::MarianSoft})
    formats.push_back(attention_format_name(f));
  app.add_option("--format", c->format, "the attention file's format (default: from its content)")
      ->check(CLI::IsMember(formats))
      ->needs(from);
  app.add_option("--src", c->file.source_path,
                 "source sentences, one per line, tokens split by spaces (Pharaoh, Marian)")
      ->needs(from);
  app.add_option("--tgt", c->file.target_path, "target sentences (Pharaoh)")->needs(from);
  app.add_option("--src-text", c->file.source_text, "the source sentence itself (Marian)")
      ->needs(from);
  app.add_option("--line", c->file.line,
                 "the sentence pair, JSON line or heatmap to show, from 1 (default 1)")
      ->check(CLI::Range(static_cast<size_t>(1), static_cast<size_t>(1) << 40))
      ->needs(from);
  app.add_flag("--one-based", c->file.one_based, "Pharaoh indices start at 1")->needs(from);

  auto* snapshots = app.add_option(
      "--snapshots", c->snapshots,
      "a training run's snapshots (JSON lines) instead of a translation: the probe sentence's "
      "heatmap through training, as small multiples (.png, .pdf, .svg) or an animated .gif");
  for (CLI::Option* other : {score, pair, model, reference, layer, head, pieces, sentence, from})
    snapshots->excludes(other);
  app.add_option("--frames", c->frames,
                 "--snapshots: how many to draw, spread evenly, first and last included (all when "
                 "there are fewer): a figure's panels (default " +
                     std::to_string(kDefaultPanels) + "), a .gif's most frames (default " +
                     std::to_string(kDefaultGifFrames) + ")")
      ->check(CLI::Range(1, 1000))
      ->needs(snapshots);
  app.add_option("--delay", c->delay,
                 "--snapshots to .gif: how long each frame shows, in milliseconds (default 200; "
                 "the last frame stays at least " +
                     std::to_string(kHoldSeconds) + " s)")
      ->check(CLI::Range(20, 60000))
      ->needs(snapshots);

  auto* beam_tree = app.add_flag(
      "--beam-tree", c->beam_tree,
      "the sentence's beam search as a tree instead of a heatmap: every candidate scored, the "
      "best path heavier, pruned ones faded, finished ones with their final score (.png, .pdf, "
      ".svg), or the JSON line translate --beam-tree writes (.json)");
  for (CLI::Option* other : {reference, layer, head, pieces, from, snapshots})
    beam_tree->excludes(other);
  app.add_option("--beam", c->beam, "--beam-tree: the beam size (default 5)")
      ->check(CLI::Range(1, 100))
      ->needs(beam_tree);
  app.add_option("--length-penalty", c->length_penalty,
                 "--beam-tree: rank finished hypotheses by log P / ((5 + length) / 6)^ALPHA "
                 "(GNMT; 0: log P itself). Without it: log P / length")
      ->check(finite_non_negative())
      ->needs(beam_tree);
  app.add_option("--coverage-penalty", c->coverage_penalty,
                 "--beam-tree: add BETA * sum over source words of log min(1, attention "
                 "received) (GNMT; default 0)")
      ->check(finite_non_negative())
      ->needs(beam_tree);
  title->excludes(snapshots)->excludes(beam_tree);
  app.parse_complete_callback([c, &app] {
    const std::string out = c->out;
    const bool picture = [&out] {
      const auto dot = out.rfind('.');
      std::string type = dot == std::string::npos ? "" : out.substr(dot + 1);
      for (char& ch : type) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      return type == "png" || type == "pdf" || type == "svg";
    }();
    refuse_unless(app, "--title", picture, "a picture: --out NAME.png, .pdf or .svg");
  });
  return [c] {
    check_arguments(*c);
    return run(*c);
  };
}

}  // namespace attnscope::cli
