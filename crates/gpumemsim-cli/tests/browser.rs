//! The HTML report as a person sees it: headless Chromium (Debian package `chromium`, which
//! .ci/run installs) renders the transpose example's report; the tests read the DOM after
//! the page's script ran (`--dump-dom`) and the pixels of a screenshot.
//!
//! Without Chromium each test prints `SKIPPED (no chromium)` and passes, except under CI
//! (`CI` set), where a missing browser fails the test: .ci/run is meant to install it.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::run;
use serde_json::Value;

/// Window of the screenshot.
const WIDTH: u32 = 1280;
const HEIGHT: u32 = 1450;
/// The heat scale's hottest colour (17 or more passes): #800026.
const HOTTEST: [u8; 3] = [0x80, 0x00, 0x26];

fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("GPUMEMSIM_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find_map(|dir| {
        ["chromium", "chromium-browser", "google-chrome"]
            .iter()
            .map(|n| dir.join(n))
            .find(|p| p.is_file())
    })
}

/// Chromium, or `None` after saying plainly that the test is skipped (a failure under CI).
fn chromium(test: &str) -> Option<PathBuf> {
    let found = find_chromium();
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{test}: chromium is not installed; .ci/run installs it (apt-get install -y chromium)"
        );
        // Written to the process's stderr directly: the test harness captures eprintln!.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED (no chromium) {test}: install it with `apt-get install -y chromium`"
        );
    }
    found
}

fn work_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("browser")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

/// Runs headless Chromium on `url` with `extra` flags (a fresh profile in `dir`), stopping
/// it if it has not finished in two minutes. Returns what it printed on standard output
/// (through a file: a page's DOM is larger than a pipe holds).
fn headless(browser: &Path, dir: &Path, url: &str, extra: &[&str]) -> String {
    let profile = dir.join("profile");
    let (out_path, err_path) = (dir.join("chromium.out"), dir.join("chromium.err"));
    let file = |p: &Path| std::fs::File::create(p).expect("an output file");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-color-profile=srgb",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(file(&out_path))
        .stderr(file(&err_path))
        .spawn()
        .expect("start chromium");
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().expect("chromium status") {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let err = std::fs::read_to_string(&err_path).unwrap_or_default();
    assert!(
        status.is_some_and(|s| s.success()),
        "chromium failed ({status:?}): {err}"
    );
    std::fs::read_to_string(&out_path).expect("chromium's output")
}

/// Writes the bundled transpose's report (transpose_naive) into `dir`; returns its path and
/// the `--json` of the same run.
fn naive_report(dir: &Path) -> (PathBuf, Value) {
    let path = dir.join("transpose.html");
    let o = run(&["run", "--html", path.to_str().expect("utf-8 path")], "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&["run", "--json"], "");
    assert!(o.status.success());
    (path, serde_json::from_slice(&o.stdout).expect("json"))
}

fn dom(browser: &Path, dir: &Path, page: &Path, fragment: &str) -> String {
    let url = format!("file://{}{fragment}", page.display());
    headless(browser, dir, &url, &["--dump-dom"])
}

/// The table's pcs in DOM order, and its `data-sorted`.
fn table_order(dom: &str) -> (Vec<u64>, String) {
    let table = dom
        .split("<table class=\"sortable\"")
        .nth(1)
        .expect("the instruction table");
    let sorted = table
        .split("data-sorted=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("data-sorted")
        .to_string();
    let body = table.split("<tbody>").nth(1).expect("a body");
    let body = body.split("</tbody>").next().expect("a body");
    let pcs = body
        .split("<tr data-pc=\"")
        .skip(1)
        .map(|r| {
            r.split('"')
                .next()
                .and_then(|s| s.parse().ok())
                .expect("a pc")
        })
        .collect();
    (pcs, sorted)
}

fn stat(json: &Value, pc: u64, key: &str) -> u64 {
    json["instructions"][pc as usize][key]
        .as_u64()
        .expect("a statistic")
}

#[test]
fn the_rendered_report_leads_with_the_32_way_conflict() {
    let Some(browser) = chromium("the_rendered_report_leads_with_the_32_way_conflict") else {
        return;
    };
    let dir = work_dir("dom");
    let (page, json) = naive_report(&dir);
    let dom = dom(&browser, &dir, &page, "");
    let (pcs, sorted) = table_order(&dom);
    assert_eq!(sorted, "hot-desc");
    let n = json["instructions"].as_array().expect("instructions").len();
    assert_eq!(pcs.len(), n);
    let top = pcs[0];
    let text = json["instructions"][top as usize]["text"]
        .as_str()
        .expect("text");
    assert!(text.starts_with("ds_load_2addr_b32"), "{text}");
    assert_eq!(stat(&json, top, "conflict_cycles"), 62);
    let glance = dom.split("id=\"glance\"").nth(1).expect("the glance line");
    let glance = glance.split("</p>").next().expect("its end");
    assert!(glance.contains("32-way conflict"), "{glance}");
    let timelines = dom.matches("<svg class=\"timeline\"").count();
    assert_eq!(timelines, 1, "the timeline");
    assert_eq!(dom.matches("<svg id=\"heat-").count(), 2, "two heat maps");
    // The 32 row loads and the 32 row stores each touch one line with every lane, from VRAM:
    // one coalescing picture for all 64.
    assert_eq!(dom.matches("<svg id=\"coalescing-").count(), 1);
    assert!(dom.contains("Same pattern: 63 more instruction(s)"));
    assert_eq!(
        dom.matches("<svg").count(),
        timelines + 3,
        "nothing else is drawn"
    );
    assert!(dom.contains(&format!("id=\"ds-{top}\"")));
}

#[test]
fn the_page_script_sorts_the_table() {
    let Some(browser) = chromium("the_page_script_sorts_the_table") else {
        return;
    };
    let dir = work_dir("sort");
    let (page, json) = naive_report(&dir);
    let n = json["instructions"].as_array().expect("instructions").len() as u64;
    // By pc, ascending: program order.
    let (pcs, sorted) = table_order(&dom(&browser, &dir, &page, "#sort=pc-asc"));
    assert_eq!(sorted, "pc-asc");
    assert_eq!(pcs, (0..n).collect::<Vec<u64>>());
    // By stall cycles, descending by default, ties in program order.
    let (pcs, sorted) = table_order(&dom(&browser, &dir, &page, "#sort=stall"));
    assert_eq!(sorted, "stall-desc");
    let mut want: Vec<u64> = (0..n).collect();
    want.sort_by_key(|&pc| (std::cmp::Reverse(stat(&json, pc, "stall_cycles")), pc));
    assert_eq!(pcs, want);
    assert_ne!(pcs, (0..n).collect::<Vec<u64>>(), "the order changed");
}

/// The opening tags of the source view's lines, in DOM order.
fn line_tags(dom: &str) -> Vec<String> {
    let view = dom.split("id=\"lines\"").nth(1).expect("the source view");
    view.split("<details ")
        .skip(1)
        .map(|d| d.split('>').next().unwrap_or("").to_string())
        .collect()
}

fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    tag.split(&format!(" {name}=\""))
        .nth(1)
        .or_else(|| tag.strip_prefix(&format!("{name}=\"")))
        .and_then(|s| s.split('"').next())
}

#[test]
fn links_unfold_source_lines_and_the_view_reorders() {
    let Some(browser) = chromium("links_unfold_source_lines_and_the_view_reorders") else {
        return;
    };
    let dir = work_dir("lines");
    let (page, json) = naive_report(&dir);
    let ins = json["instructions"].as_array().expect("instructions");
    // The hottest line first, every line folded.
    let first = line_tags(&dom(&browser, &dir, &page, ""));
    let hot: Vec<&str> = first.iter().filter_map(|t| attr(t, "id")).collect();
    assert_eq!(hot[0], "line-0-8", "{first:?}");
    assert!(first.iter().all(|t| !t.contains(" open")), "{first:?}");
    // A link to a column read (the banner's worst access) unfolds its line, and only it.
    let pc = ins
        .iter()
        .find(|i| stat(&json, i["pc"].as_u64().expect("pc"), "conflict_cycles") > 0)
        .and_then(|i| i["pc"].as_u64())
        .expect("a conflicting instruction");
    let d = dom(&browser, &dir, &page, &format!("#i-{pc}"));
    let tags = line_tags(&d);
    let open: Vec<&str> = tags
        .iter()
        .filter(|t| t.contains(" open"))
        .filter_map(|t| attr(t, "id"))
        .collect();
    assert_eq!(open, ["line-0-8"]);
    // `#lines=file`: the lines in file order (the script's order, the buttons' state).
    let d = dom(&browser, &dir, &page, "#lines=file");
    assert!(d.contains("id=\"lines\" data-order=\"file\""));
    let numbers: Vec<u64> = line_tags(&d)
        .iter()
        .filter_map(|t| attr(t, "id"))
        .filter_map(|id| id.strip_prefix("line-0-").and_then(|n| n.parse().ok()))
        .collect();
    let mut sorted = numbers.clone();
    sorted.sort_unstable();
    assert_eq!(numbers, sorted);
    assert_eq!(
        numbers.len(),
        json["lines"].as_array().expect("lines").len()
    );
    assert_ne!(
        numbers,
        hot.iter()
            .filter_map(|id| id.strip_prefix("line-0-").and_then(|n| n.parse().ok()))
            .collect::<Vec<u64>>(),
        "the order changed"
    );
}

/// Decodes a PNG to (width, height, RGB bytes).
fn decode_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let bytes = std::fs::read(path).expect("the screenshot");
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a frame size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let channels = match info.color_type {
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        other => panic!("unexpected colour type {other:?}"),
    };
    let rgb = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    (info.width, info.height, rgb)
}

fn near(p: &[u8], c: [u8; 3]) -> bool {
    p.iter().zip(c).all(|(&a, b)| a.abs_diff(b) <= 4)
}

#[test]
fn the_screenshot_shows_a_full_row_of_the_hottest_colour() {
    let Some(browser) = chromium("the_screenshot_shows_a_full_row_of_the_hottest_colour") else {
        return;
    };
    let dir = work_dir("screenshot");
    let (page, _) = naive_report(&dir);
    let shot = dir.join("transpose.png");
    headless(
        &browser,
        &dir,
        &format!("file://{}", page.display()),
        &[
            &format!("--screenshot={}", shot.display()),
            &format!("--window-size={WIDTH},{HEIGHT}"),
        ],
    );
    let (w, h, rgb) = decode_png(&shot);
    assert_eq!((w, h), (WIDTH, HEIGHT));
    // Not blank: many colours, mostly the white page.
    let mut colours: Vec<[u8; 3]> = rgb.chunks(3).map(|p| [p[0], p[1], p[2]]).collect();
    let white = colours.iter().filter(|&&c| c == [255, 255, 255]).count();
    assert!(white > (w * h / 2) as usize, "the page background is white");
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 50, "only {} colours", colours.len());
    // The 32-way conflict: in some pixel row, both passes' 32 lane cells (13 px each) are the
    // hottest colour, one bar across the whole phase.
    let widest = rgb
        .chunks(3 * w as usize)
        .map(|row| row.chunks(3).filter(|p| near(p, HOTTEST)).count())
        .max()
        .unwrap_or(0);
    assert!(widest >= 32 * 13, "widest hottest row: {widest} px");
    let total = rgb.chunks(3).filter(|p| near(p, HOTTEST)).count();
    assert!(total >= 2 * 32 * 13 * 11, "{total} hottest pixels");
}
