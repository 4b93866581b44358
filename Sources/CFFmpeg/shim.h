#ifndef LIGHTBOX_CFFMPEG_SHIM_H
#define LIGHTBOX_CFFMPEG_SHIM_H
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>

// One frame of a video as a thumbnail, with FFmpeg's libraries, in a decoder process.
// The file is read through our own descriptor (no URL, so no protocol, is ever opened) with
// the demuxer our sniffing chose (no probing into playlists or concatenations), one thread.

/// What one video gave: an upright RGB frame fitted to the box, and what the video is.
typedef struct {
    unsigned char *pixels;      // RGB, width * height * 3 bytes; free with lb_video_free
    int width, height;
    int source_width, source_height;  // the picture as shown (after rotation)
    int rotation;               // degrees clockwise the stored frames are turned to show them
    double duration;            // seconds; 0 when unknown
    double frame_rate;          // frames a second; 0 when unknown
    double detail;              // the chosen frame's grey standard deviation (0-255)
    int candidates;             // frames decoded to choose it
    char codec[32];
    char message[256];
} lb_video;

enum { LB_VIDEO_OK = 0, LB_VIDEO_TOO_LARGE = 1, LB_VIDEO_FAILED = 2 };

static inline void lb_video_free(void *p) { av_free(p); }

static int lb_video_read(void *opaque, uint8_t *buf, int size) {
    int fd = *(int *)opaque;
    ssize_t n;
    do n = read(fd, buf, (size_t)size); while (n < 0 && errno == EINTR);
    if (n == 0) return AVERROR_EOF;
    return n < 0 ? AVERROR(errno) : (int)n;
}

static int64_t lb_video_seek(void *opaque, int64_t offset, int whence) {
    int fd = *(int *)opaque;
    if (whence == AVSEEK_SIZE) {
        struct stat st;
        return fstat(fd, &st) == 0 ? (int64_t)st.st_size : AVERROR(errno);
    }
    off_t at = lseek(fd, (off_t)offset, whence & ~AVSEEK_FORCE);
    return at < 0 ? AVERROR(errno) : (int64_t)at;
}

/// The grey level's standard deviation over an RGB picture: near 0 for a black or flat frame.
static inline double lb_video_detail(const unsigned char *rgb, int count) {
    double sum = 0, squares = 0;
    for (int i = 0; i < count; i++) {
        double grey = 0.299 * rgb[3 * i] + 0.587 * rgb[3 * i + 1] + 0.114 * rgb[3 * i + 2];
        sum += grey;
        squares += grey * grey;
    }
    if (count == 0) return 0;
    double mean = sum / count;
    return sqrt(fmax(0, squares / count - mean * mean));
}

/// Decodes the next frame of stream `index` after a seek; 0 when one came out.
static inline int lb_video_next_frame(AVFormatContext *format, AVCodecContext *codec, int index, AVPacket *packet, AVFrame *frame) {
    for (int packets = 0; packets < 4096; packets++) {
        int got = avcodec_receive_frame(codec, frame);
        if (got == 0) return 0;
        if (got != AVERROR(EAGAIN)) return got;
        int read = av_read_frame(format, packet);
        if (read < 0) {
            avcodec_send_packet(codec, NULL);  // drain what the decoder holds
            return avcodec_receive_frame(codec, frame);
        }
        if (packet->stream_index == index) avcodec_send_packet(codec, packet);
        av_packet_unref(packet);
    }
    return AVERROR_INVALIDDATA;
}

/// Turns an RGB picture `degrees` clockwise (90, 180 or 270) into a new buffer.
static inline unsigned char *lb_video_rotate(const unsigned char *rgb, int w, int h, int degrees) {
    unsigned char *out = av_malloc((size_t)w * h * 3);
    if (!out) return NULL;
    int ow = degrees == 180 ? w : h;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int nx, ny;
            if (degrees == 90) { nx = h - 1 - y; ny = x; }
            else if (degrees == 270) { nx = y; ny = w - 1 - x; }
            else { nx = w - 1 - x; ny = h - 1 - y; }
            memcpy(out + ((size_t)ny * ow + nx) * 3, rgb + ((size_t)y * w + x) * 3, 3);
        }
    }
    return out;
}

/// A video open for decoding: the container read through our descriptor, its best video
/// stream's decoder, and the size its frames are scaled to (as stored, before turning).
typedef struct {
    AVFormatContext *format;
    AVIOContext *io;
    AVCodecContext *codec;
    AVPacket *packet;
    AVFrame *frame;
    struct SwsContext *scaler;
    AVStream *stream;
    int index, fd, turned;
    int out_w, out_h;
    double max_pixels;
} lb_video_source;

/// Opens the video `fd` with `demuxer`, fills the facts of `v` (codec, duration, rate, rotation,
/// shown size) and sizes the frames to fit box_w x box_h once turned; `threads` for the decoder.
/// LB_VIDEO_OK when frames can be decoded; close with lb_video_close whatever it returns.
static inline int lb_video_open(lb_video_source *s, int fd, const char *demuxer, int box_w, int box_h, double max_pixels, int threads, lb_video *v) {
    memset(v, 0, sizeof *v);
    memset(s, 0, sizeof *s);
    av_log_set_level(AV_LOG_QUIET);
    s->fd = fd;
    s->max_pixels = max_pixels;
    s->packet = av_packet_alloc();
    s->frame = av_frame_alloc();
    const AVInputFormat *input = av_find_input_format(demuxer);
    unsigned char *io_buffer = av_malloc(1 << 16);
    s->format = avformat_alloc_context();
    if (!input || !io_buffer || !s->format || !s->packet || !s->frame) { snprintf(v->message, sizeof v->message, "out of memory"); av_free(io_buffer); return LB_VIDEO_FAILED; }
    s->io = avio_alloc_context(io_buffer, 1 << 16, 0, &s->fd, lb_video_read, NULL, lb_video_seek);
    if (!s->io) { av_free(io_buffer); snprintf(v->message, sizeof v->message, "out of memory"); return LB_VIDEO_FAILED; }
    s->format->pb = s->io;
    s->format->flags |= AVFMT_FLAG_CUSTOM_IO;
    s->format->probesize = 8 << 20;
    s->format->max_analyze_duration = 2 * AV_TIME_BASE;
    if (avformat_open_input(&s->format, NULL, input, NULL) < 0) {
        snprintf(v->message, sizeof v->message, "cannot read the container");
        return LB_VIDEO_FAILED;  // avformat_open_input freed the context
    }
    if (avformat_find_stream_info(s->format, NULL) < 0) { snprintf(v->message, sizeof v->message, "cannot read the streams"); return LB_VIDEO_FAILED; }
    const AVCodec *decoder = NULL;
    s->index = av_find_best_stream(s->format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (s->index < 0) { snprintf(v->message, sizeof v->message, s->index == AVERROR_DECODER_NOT_FOUND ? "no decoder for its video" : "no video stream"); return LB_VIDEO_FAILED; }
    AVStream *stream = s->stream = s->format->streams[s->index];
    int w = stream->codecpar->width, h = stream->codecpar->height;
    snprintf(v->codec, sizeof v->codec, "%s", avcodec_get_name(stream->codecpar->codec_id));
    if (s->format->duration > 0) v->duration = (double)s->format->duration / AV_TIME_BASE;
    else if (stream->duration > 0) v->duration = stream->duration * av_q2d(stream->time_base);
    if (stream->avg_frame_rate.num > 0 && stream->avg_frame_rate.den > 0) v->frame_rate = av_q2d(stream->avg_frame_rate);
    const int32_t *matrix = (const int32_t *)av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    if (matrix) {
        double theta = -av_display_rotation_get(matrix);  // clockwise, as ffmpeg's autorotate reads it
        if (!isnan(theta)) v->rotation = ((int)lround(theta / 90) % 4 + 4) % 4 * 90;
    }
    // The picture as shown: sample aspect and rotation applied.
    AVRational sar = stream->codecpar->sample_aspect_ratio;
    double shown_w = w, shown_h = h;
    if (sar.num > 0 && sar.den > 0) shown_w = w * av_q2d(sar);
    s->turned = v->rotation == 90 || v->rotation == 270;
    v->source_width = (int)lround(s->turned ? shown_h : shown_w);
    v->source_height = (int)lround(s->turned ? shown_w : shown_h);
    if (w <= 0 || h <= 0) { snprintf(v->message, sizeof v->message, "video has no pixels"); return LB_VIDEO_FAILED; }
    if ((double)w * h > max_pixels) return LB_VIDEO_TOO_LARGE;
    s->codec = avcodec_alloc_context3(decoder);
    if (!s->codec || avcodec_parameters_to_context(s->codec, stream->codecpar) < 0) { snprintf(v->message, sizeof v->message, "out of memory"); return LB_VIDEO_FAILED; }
    s->codec->thread_count = threads;
    // The stream may change size later (an MJPEG frame, an SPS): FFmpeg refuses any frame
    // buffer over the limit, and every frame that comes out is checked again (lb_video_scale).
    s->codec->max_pixels = (int64_t)fmin(max_pixels, (double)INT64_MAX / 2);
    if (avcodec_open2(s->codec, decoder, NULL) < 0) { snprintf(v->message, sizeof v->message, "cannot open the %s decoder", v->codec); return LB_VIDEO_FAILED; }
    // The size the frame is scaled to, as stored (before turning), fitting the box once turned.
    double fit_w = s->turned ? box_h : box_w, fit_h = s->turned ? box_w : box_h;
    double scale = fmin(fit_w / shown_w, fit_h / shown_h);
    if (scale > 1) scale = 1;
    s->out_w = (int)fmax(1, lround(shown_w * scale));
    s->out_h = (int)fmax(1, lround(shown_h * scale));
    return LB_VIDEO_OK;
}

static inline void lb_video_close(lb_video_source *s) {
    sws_freeContext(s->scaler);
    avcodec_free_context(&s->codec);
    if (s->format) avformat_close_input(&s->format);
    if (s->io) { av_freep(&s->io->buffer); avio_context_free(&s->io); }
    av_frame_free(&s->frame);
    av_packet_free(&s->packet);
}

/// Scales the frame just decoded into `out` (out_w x out_h RGB, as stored): 0 when done,
/// LB_VIDEO_TOO_LARGE for a frame over the limit (its size in v), -1 when it cannot be scaled.
static inline int lb_video_scale(lb_video_source *s, unsigned char *out, lb_video *v) {
    AVFrame *frame = s->frame;
    if ((double)frame->width * frame->height > s->max_pixels) {
        v->source_width = frame->width;
        v->source_height = frame->height;
        return LB_VIDEO_TOO_LARGE;
    }
    s->scaler = sws_getCachedContext(s->scaler, frame->width, frame->height, frame->format, s->out_w, s->out_h, AV_PIX_FMT_RGB24,
                                     SWS_AREA, NULL, NULL, NULL);
    if (!s->scaler) return -1;
    uint8_t *planes[1] = { out };
    int strides[1] = { s->out_w * 3 };
    return sws_scale(s->scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides) > 0 ? 0 : -1;
}

/// A frame of the video open as `fd`, read with demuxer `demuxer` ("mov", "matroska", "avi"):
/// of a few keyframes from near 10% of the duration on, the first with enough detail (else the
/// one with the most), scaled to fit box_w x box_h, turned upright by the display matrix.
/// Refuses, before decoding, frames of more than max_pixels.
static inline int lb_video_thumbnail(int fd, const char *demuxer, int box_w, int box_h, double max_pixels, lb_video *v) {
    lb_video_source s;
    unsigned char *best = NULL, *scaled = NULL;
    int status = lb_video_open(&s, fd, demuxer, box_w, box_h, max_pixels, 1, v);
    if (status != LB_VIDEO_OK) goto done;
    status = LB_VIDEO_FAILED;
    AVStream *stream = s.stream;
    int out_w = s.out_w, out_h = s.out_h;
    size_t out_bytes = (size_t)out_w * out_h * 3;
    scaled = av_malloc(out_bytes);
    best = av_malloc(out_bytes);
    if (!scaled || !best) { snprintf(v->message, sizeof v->message, "out of memory"); goto done; }
    static const double positions[] = { 0.10, 0.25, 0.40, 0.0 };
    double best_detail = -1;
    int64_t last_pts = AV_NOPTS_VALUE;
    for (int c = 0; c < 4; c++) {
        double at = positions[c] * v->duration;
        if (c > 0 && v->duration <= 0) break;
        int64_t target = (int64_t)(at / av_q2d(stream->time_base));
        if (stream->start_time != AV_NOPTS_VALUE) target += stream->start_time;
        // The keyframe at or after the point; past the last one, the one before it.
        if (av_seek_frame(s.format, s.index, target, 0) < 0 && av_seek_frame(s.format, s.index, target, AVSEEK_FLAG_BACKWARD) < 0) continue;
        avcodec_flush_buffers(s.codec);
        if (lb_video_next_frame(s.format, s.codec, s.index, s.packet, s.frame) != 0) continue;
        if (s.frame->pts != AV_NOPTS_VALUE && s.frame->pts == last_pts) continue;  // the same keyframe again
        last_pts = s.frame->pts;
        int scaled_status = lb_video_scale(&s, scaled, v);
        if (scaled_status == LB_VIDEO_TOO_LARGE) { status = LB_VIDEO_TOO_LARGE; goto done; }
        if (scaled_status != 0) continue;
        v->candidates++;
        double detail = lb_video_detail(scaled, out_w * out_h);
        if (detail > best_detail) {
            best_detail = detail;
            memcpy(best, scaled, out_bytes);
        }
        if (detail >= 24) break;  // enough to tell the video by
    }
    if (best_detail < 0) { snprintf(v->message, sizeof v->message, "cannot decode a frame of its %s video", v->codec); goto done; }
    v->detail = best_detail;
    if (v->rotation) {
        v->pixels = lb_video_rotate(best, out_w, out_h, v->rotation);
        if (!v->pixels) { snprintf(v->message, sizeof v->message, "out of memory"); goto done; }
    } else {
        v->pixels = best;
        best = NULL;
    }
    v->width = s.turned ? out_h : out_w;
    v->height = s.turned ? out_w : out_h;
    status = LB_VIDEO_OK;
done:
    av_free(scaled);
    av_free(best);
    lb_video_close(&s);
    return status;
}

/// Frames to play of the video open as `fd`, from `start_ms` into it: one for each interval of
/// `interval_ms` (or the video's own frame time when longer) that a frame begins in, at most
/// `max_frames` and `max_bytes`, fitted to the box, upright, one above the other in v->pixels
/// (v->width x v->height * count), each with how long it shows in delays_ms. Fewer at the
/// video's end; none past it (*count 0, LB_VIDEO_OK).
static inline int lb_video_clip(int fd, const char *demuxer, int box_w, int box_h, double max_pixels, int start_ms, int interval_ms,
                                int max_frames, size_t max_bytes, int *delays_ms, int *count, lb_video *v) {
    lb_video_source s;
    unsigned char *frames = NULL, *scaled = NULL;
    *count = 0;
    int status = lb_video_open(&s, fd, demuxer, box_w, box_h, max_pixels, 2, v);
    if (status != LB_VIDEO_OK) goto done;
    status = LB_VIDEO_FAILED;
    AVStream *stream = s.stream;
    double base = av_q2d(stream->time_base);
    double origin = stream->start_time != AV_NOPTS_VALUE ? stream->start_time * base : 0;
    if (v->frame_rate > 0 && 1000 / v->frame_rate > interval_ms) interval_ms = (int)lround(1000 / v->frame_rate);
    if (interval_ms < 1) interval_ms = 1;
    size_t frame_bytes = (size_t)s.out_w * s.out_h * 3;
    if (max_frames > (int)(max_bytes / frame_bytes)) max_frames = (int)(max_bytes / frame_bytes);
    if (max_frames < 1) max_frames = 1;
    frames = av_malloc(frame_bytes * max_frames);
    scaled = av_malloc(frame_bytes);
    if (!frames || !scaled) { snprintf(v->message, sizeof v->message, "out of memory"); goto done; }
    double start = start_ms / 1000.0, step = interval_ms / 1000.0;
    if (start_ms > 0) {
        // The keyframe at or before the start: the frames from it to the start are decoded and passed over.
        int64_t target = (int64_t)((start + origin) / base);
        av_seek_frame(s.format, s.index, target, AVSEEK_FLAG_BACKWARD);
        avcodec_flush_buffers(s.codec);
    }
    int last_slot = -1, last_from = 0;
    while (*count < max_frames) {
        if (lb_video_next_frame(s.format, s.codec, s.index, s.packet, s.frame) != 0) break;  // the end, or a frame it cannot read
        int64_t pts = s.frame->best_effort_timestamp;
        double at = pts == AV_NOPTS_VALUE ? start + (last_slot + 1) * step : pts * base - origin;
        int slot = (int)floor((at - start) / step + 1e-6);
        if (slot <= last_slot || slot < 0) continue;  // before the start, or in the slot of the frame before
        int scaled_status = lb_video_scale(&s, scaled, v);
        if (scaled_status == LB_VIDEO_TOO_LARGE) { status = LB_VIDEO_TOO_LARGE; goto done; }
        if (scaled_status != 0) continue;
        unsigned char *into = frames + frame_bytes * *count;
        if (v->rotation) {
            unsigned char *turned = lb_video_rotate(scaled, s.out_w, s.out_h, v->rotation);
            if (!turned) { snprintf(v->message, sizeof v->message, "out of memory"); goto done; }
            memcpy(into, turned, frame_bytes);
            av_free(turned);
        } else {
            memcpy(into, scaled, frame_bytes);
        }
        // The frame before shows until this one's slot; the first from the clip's start.
        int from = *count == 0 ? 0 : slot;
        if (*count > 0) delays_ms[*count - 1] = (from - last_from) * interval_ms;
        delays_ms[*count] = interval_ms;
        last_slot = slot;
        last_from = from;
        (*count)++;
    }
    v->width = s.turned ? s.out_h : s.out_w;
    v->height = s.turned ? s.out_w : s.out_h;
    if (*count > 0) {
        v->pixels = frames;
        frames = NULL;
    }
    status = LB_VIDEO_OK;
done:
    av_free(scaled);
    av_free(frames);
    lb_video_close(&s);
    return status;
}

#endif
