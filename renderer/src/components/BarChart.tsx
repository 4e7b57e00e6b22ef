// A plain SVG bar chart (stacked series per column) with an accessible summary and a title on every bar.

/** One stacked series: its name, a value per column and the CSS class that colours it. */
export interface BarSeries {
  name: string;
  values: number[];
  className: string;
}

const WIDTH = 640;
const HEIGHT = 160;
const PAD_LEFT = 76;
const PAD_BOTTOM = 20;

/** Stacked bars over `labels`; `format` writes a value (axis and titles); `label` is the chart's accessible name. */
export function BarChart(props: {
  label: string;
  labels: string[];
  series: BarSeries[];
  format: (value: number) => string;
  testId?: string;
}) {
  const { labels, series, format } = props;
  const totals = labels.map((_, index) => series.reduce((sum, item) => sum + (item.values[index] ?? 0), 0));
  const max = Math.max(...totals, 0);
  const plotWidth = WIDTH - PAD_LEFT;
  const plotHeight = HEIGHT - PAD_BOTTOM;
  const step = plotWidth / Math.max(labels.length, 1);
  const barWidth = Math.max(2, step * 0.7);
  const y = (value: number) => (max === 0 ? 0 : (value / max) * (plotHeight - 8));
  // Every label when few, else about eight spread over the range.
  const labelEvery = Math.ceil(labels.length / 8);
  return (
    <figure className="chart" data-testid={props.testId}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={props.label} preserveAspectRatio="none">
        <title>{props.label}</title>
        <line x1={PAD_LEFT} y1={plotHeight} x2={WIDTH} y2={plotHeight} className="chart-axis" />
        <text x={PAD_LEFT - 4} y={10} className="chart-tick" textAnchor="end">
          {format(max)}
        </text>
        <text x={PAD_LEFT - 4} y={plotHeight} className="chart-tick" textAnchor="end">
          {format(0)}
        </text>
        {labels.map((name, index) => {
          let base = plotHeight;
          const x = PAD_LEFT + index * step + (step - barWidth) / 2;
          return (
            <g key={name}>
              {series.map((item) => {
                const height = y(item.values[index] ?? 0);
                base -= height;
                return height > 0 ? (
                  <rect key={item.name} x={x} y={base} width={barWidth} height={height} className={item.className}>
                    <title>{`${name} · ${item.name}: ${format(item.values[index] ?? 0)}`}</title>
                  </rect>
                ) : null;
              })}
              {index % labelEvery === 0 && (
                <text x={x + barWidth / 2} y={HEIGHT - 4} className="chart-tick" textAnchor="middle">
                  {name}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      {series.length > 1 && (
        <figcaption className="chart-legend">
          {series.map((item) => (
            <span key={item.name}>
              <span className={`swatch ${item.className}`} aria-hidden="true" /> {item.name}
            </span>
          ))}
        </figcaption>
      )}
    </figure>
  );
}
