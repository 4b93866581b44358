#!/usr/bin/env bash
# make fuzz: builds the libFuzzer targets with AddressSanitizer and runs each for SECONDS.
# Crashes are written to Tests/Fuzz/artifacts/; turn each into a regression test.
# Usage: run.sh [SECONDS]
set -uo pipefail
cd "$(dirname "$0")/../.."
SECONDS_EACH=${1:-60}
swift build --product lightbox-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DLIGHTBOX_FUZZING --build-path .build/fuzz || exit 1
mkdir -p Tests/Fuzz/artifacts
status=0
for target in ${FUZZ_TARGETS:-header exif png video raw sanitizer message input list jpeg xmp index}; do
    corpus=".build/fuzz/corpus/$target"
    mkdir -p "$corpus"
    # Seeds: the sample library's images for the parsers of image bytes.
    case $target in header|exif|png|raw) find assets -type f | head -20 | xargs -I{} cp {} "$corpus/" ;; esac
    # A seed for the APNG decoder: a small animation with sub-rectangle frames, made by ffmpeg.
    if [ "$target" = png ] && [ ! -e "$corpus/seed-apng.png" ]; then
        ffmpeg -nostdin -loglevel error -y -f lavfi -i "testsrc2=s=24x16:r=5:d=1,format=rgba" -plays 0 -f apng "$corpus/seed-apng.png" || exit 1
    fi
    # Seeds for the containers' EXIF readers: a PNG, a WebP and a HEIC holding EXIF.
    if [ "$target" = exif ] && [ ! -e "$corpus/seed.heic" ]; then
        ffmpeg -nostdin -loglevel error -y -f lavfi -i testsrc2=s=32x24 -frames:v 1 "$corpus/seed.png" || exit 1
        ffmpeg -nostdin -loglevel error -y -f lavfi -i testsrc2=s=32x24 -frames:v 1 -c:v libwebp "$corpus/seed.webp" || exit 1
        heif-enc -q 30 "$corpus/seed.png" -o "$corpus/seed.heic" >/dev/null || exit 1
        exiftool -q -overwrite_original "-DateTimeOriginal=2022:03:04 05:06:07" "$corpus"/seed.png "$corpus"/seed.webp "$corpus"/seed.heic || exit 1
    fi
    # Seeds for our JPEG decoder: small baseline JPEGs as cameras lay them out, made by cjpeg.
    if [ "$target" = jpeg ] && [ ! -e "$corpus/seed-gray.jpg" ]; then
        convert -size 40x24 plasma:fractal "$corpus/seed.ppm" || exit 1
        for seed in "420:-sample 2x2" "444:-sample 1x1" "422:-sample 2x1" "restart:-sample 2x2 -restart 1B" "gray:-grayscale" "rgb:-rgb"; do
            cjpeg ${seed#*:} -outfile "$corpus/seed-${seed%%:*}.jpg" "$corpus/seed.ppm" || exit 1
        done
        rm "$corpus/seed.ppm"
    fi
    # Seeds for the video containers' readers: a short clip of each, made by ffmpeg.
    if [ "$target" = video ] && [ ! -e "$corpus/seed.mp4" ]; then
        for seed in seed.mp4 seed.mov seed.mkv seed.webm seed.avi; do
            ffmpeg -nostdin -loglevel error -y -f lavfi -i testsrc2=s=32x24:r=5:d=1 -metadata creation_time=2024-05-17T21:30:05Z \
                -c:v "$([ "${seed##*.}" = webm ] && echo libvpx || echo mpeg4)" "$corpus/$seed" || exit 1
        done
    fi
    # Seeds for the sidecar reader: sidecars as exiftool writes them, with darktable's and digiKam's namespaces.
    if [ "$target" = xmp ] && [ ! -e "$corpus/seed-lr.xmp" ]; then
        exiftool -q -o "$corpus/seed-lr.xmp" -XMP-xmp:Rating=3 -XMP-xmp:Label=Red -XMP-crs:Exposure2012=+0.5 -XMP-dc:Subject=trip || exit 1
        exiftool -q -o "$corpus/seed-dk.xmp" -XMP-digiKam:ColorLabel=4 -XMP-digiKam:PickLabel=1 -XMP-xmp:Rating=-1 || exit 1
        printf '%s' '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:darktable="http://darktable.sf.net/" xmp:Rating="2"><darktable:colorlabels><rdf:Seq><rdf:li>0</rdf:li><rdf:li>4</rdf:li></rdf:Seq></darktable:colorlabels></rdf:Description></rdf:RDF></x:xmpmeta>' > "$corpus/seed-dt.xmp"
    fi
    echo "== $target ($SECONDS_EACH s)"
    SWIFT_BACKTRACE=enable=no LIGHTBOX_FUZZ_TARGET=$target .build/fuzz/debug/lightbox-fuzz "$corpus" \
        -max_total_time="$SECONDS_EACH" -max_len=65536 -artifact_prefix="Tests/Fuzz/artifacts/$target-" 2>&1 \
        | grep -E "DONE|ERROR|SUMMARY|Test unit written" || true
    ls Tests/Fuzz/artifacts/"$target"-* >/dev/null 2>&1 && { echo "crash found in $target"; status=1; }
done
exit $status
