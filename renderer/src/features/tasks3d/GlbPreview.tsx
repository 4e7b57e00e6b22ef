// A turning preview of a GLB result, drawn on a 2D canvas by the tiny software renderer (no 3D library needed).
import { useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n/index.ts';
import { parseGlb, type Mesh } from './glb.ts';
import { drawMesh } from './project.ts';

const WIDTH = 280;
const HEIGHT = 220;

export function GlbPreview(props: { load: () => Promise<ArrayBuffer> }) {
  const t = useT();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [mesh, setMesh] = useState<Mesh | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { load } = props;

  useEffect(() => {
    let cancelled = false;
    load()
      .then((data) => !cancelled && setMesh(parseGlb(data)))
      .catch((reason: unknown) => !cancelled && setError(reason instanceof Error ? reason.message : String(reason)));
    return () => {
      cancelled = true;
    };
  }, [load]);

  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!mesh || !context) return;
    let frame = 0;
    const started = performance.now();
    const paint = (time: number) => {
      drawMesh(context, mesh, ((time - started) / 4000) * Math.PI * 2, WIDTH, HEIGHT);
      frame = requestAnimationFrame(paint);
    };
    frame = requestAnimationFrame(paint);
    return () => cancelAnimationFrame(frame);
  }, [mesh]);

  if (error) return <p className="error-box">{t('previewFailed', { reason: error })}</p>;
  return (
    <figure className="preview">
      <canvas
        ref={canvas}
        width={WIDTH}
        height={HEIGHT}
        data-testid="glb-preview"
        data-triangles={mesh ? mesh.indices.length / 3 : undefined}
        aria-label={t('preview3d')}
      />
      <figcaption className="muted small">
        {mesh ? t('previewStats', { vertices: mesh.positions.length / 3, triangles: mesh.indices.length / 3 }) : t('loadingPreview')}
      </figcaption>
    </figure>
  );
}
