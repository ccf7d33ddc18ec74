// Box2D v3 on impact's benchmark scenes, for the comparison in docs/performance.md ("The 4.3 ms
// goal"). Our own code, written against Box2D's public API (box2d.h); each scene is built as
// `crates/impact2d/src/benchmarks.rs` builds it, with the same sizes, positions, densities and
// the same defaults (friction 0.6, restitution 0, density 1 are both engines' defaults).
//
// One world per scene from b2DefaultWorldDef() with workerCount 1 and no task callbacks: Box2D
// steps on the calling thread. Every step is b2World_Step(world, 1/60, 4) and is timed with
// clock_gettime(CLOCK_MONOTONIC); the run prints the median, p95 and mean ms per step (the same
// percentile rule as the `world_steps` example), Box2D's own profile medians, and a sanity line
// (the last body's final position, the sum of all body positions, awake bodies, contacts, and
// how many of them Box2D recycled in the last step).
//
// Box2D at this revision recycles contacts by default (b2BodyDef::enableContactRecycling, world
// recycle distance B2_CONTACT_RECYCLE_DISTANCE): the narrow phase keeps a contact's manifold,
// updating only its separations, while the pair's relative pose stays within that distance.
// `--no-recycle` sets the world's recycle distance to 0 (b2World_SetContactRecycleDistance),
// so that every touching pair is collided every step as impact does; the default build's
// numbers are the ones without it.
//
// Usage: large_pyramid [scene ...] [--steps N] [--no-recycle]; every scene when none is named,
// each for the step count of `BENCHMARKS` in benchmarks.rs unless --steps is given.

#include "box2d/box2d.h"
#include "box2d/math_functions.h"
#include "box2d/types.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STEP_DT ( 1.0f / 60.0f )
#define SUBSTEPS 4

typedef struct Bodies
{
	b2BodyId* ids;
	int count;
	int capacity;
} Bodies;

static void remember( Bodies* bodies, b2BodyId id )
{
	if ( bodies->count == bodies->capacity )
	{
		bodies->capacity = bodies->capacity == 0 ? 1024 : 2 * bodies->capacity;
		bodies->ids = realloc( bodies->ids, (size_t)bodies->capacity * sizeof( b2BodyId ) );
		if ( bodies->ids == NULL )
		{
			fprintf( stderr, "out of memory\n" );
			exit( 1 );
		}
	}
	bodies->ids[bodies->count++] = id;
}

static b2WorldId new_world( b2Vec2 gravity )
{
	b2WorldDef def = b2DefaultWorldDef();
	def.gravity = gravity;
	// One thread: no task system, so Box2D runs every stage on the calling thread.
	def.workerCount = 1;
	def.enqueueTask = NULL;
	def.finishTask = NULL;
	def.userTaskContext = NULL;
	return b2CreateWorld( &def );
}

// A unit box (half size 0.5 m, density 1) that never sleeps.
static void pyramid_box( b2WorldId world, Bodies* bodies, float x, float y )
{
	b2BodyDef def = b2DefaultBodyDef();
	def.type = b2_dynamicBody;
	def.position = ( b2Vec2 ){ x, y };
	def.enableSleep = false;
	b2BodyId body = b2CreateBody( world, &def );
	b2ShapeDef shape = b2DefaultShapeDef();
	b2Polygon box = b2MakeBox( 0.5f, 0.5f );
	b2CreatePolygonShape( body, &shape, &box );
	remember( bodies, body );
}

// A pyramid of unit boxes, `base` on its lowest row, the row's left end at `left` and its bottom
// at `bottom`; rows bottom to top, boxes left to right (the order of benchmarks.rs).
static void pyramid( b2WorldId world, Bodies* bodies, int base, float left, float bottom )
{
	for ( int row = 0; row < base; ++row )
	{
		float y = bottom + 0.5f + (float)row;
		for ( int column = row; column < base; ++column )
		{
			float x = left + 0.5f + 0.5f * (float)row + (float)( column - row );
			pyramid_box( world, bodies, x, y );
		}
	}
}

// 5050 unit boxes, base 100, on a static ground box 200 m wide whose top is at y = 0.
static b2WorldId large_pyramid( Bodies* bodies )
{
	b2WorldId world = new_world( ( b2Vec2 ){ 0.0f, -10.0f } );
	b2BodyDef def = b2DefaultBodyDef();
	def.position = ( b2Vec2 ){ 0.0f, -1.0f };
	b2BodyId ground = b2CreateBody( world, &def );
	b2ShapeDef shape = b2DefaultShapeDef();
	b2Polygon box = b2MakeBox( 100.0f, 1.0f );
	b2CreatePolygonShape( ground, &shape, &box );
	pyramid( world, bodies, 100, -50.0f, 0.0f );
	return world;
}

// 20 rows of 20 pyramids of base 10 (22,000 boxes), each row on its own static segment 220 m
// long, the rows 11 m apart.
static b2WorldId many_pyramids( Bodies* bodies )
{
	b2WorldId world = new_world( ( b2Vec2 ){ 0.0f, -10.0f } );
	int rows = 20, columns = 20, base = 10;
	float spacing = (float)base + 1.0f;
	float width = (float)columns * spacing;
	b2BodyDef def = b2DefaultBodyDef();
	b2BodyId ground = b2CreateBody( world, &def );
	for ( int row = 0; row < rows; ++row )
	{
		float y = (float)row * spacing;
		b2Segment floor = { { -0.5f * width, y }, { 0.5f * width, y } };
		b2ShapeDef shape = b2DefaultShapeDef();
		b2CreateSegmentShape( ground, &shape, &floor );
	}
	for ( int row = 0; row < rows; ++row )
	{
		for ( int column = 0; column < columns; ++column )
		{
			float left = -0.5f * width + (float)column * spacing + 0.5f;
			pyramid( world, bodies, base, left, (float)row * spacing );
		}
	}
	return world;
}

// A kinematic hollow box 20 m across (walls 1 m thick) centered 10 m up, turning at 25 degrees
// per second, with 45 x 45 boxes of half size 0.125 m, 0.4 m apart, inside.
static b2WorldId tumbler( Bodies* bodies )
{
	b2WorldId world = new_world( ( b2Vec2 ){ 0.0f, -10.0f } );
	b2BodyDef def = b2DefaultBodyDef();
	def.type = b2_kinematicBody;
	def.position = ( b2Vec2 ){ 0.0f, 10.0f };
	def.angularVelocity = 25.0f * ( B2_PI / 180.0f );
	def.enableSleep = false;
	b2BodyId drum = b2CreateBody( world, &def );
	const float walls[4][4] = {
		{ 0.5f, 10.0f, 10.0f, 0.0f },
		{ 0.5f, 10.0f, -10.0f, 0.0f },
		{ 10.0f, 0.5f, 0.0f, 10.0f },
		{ 10.0f, 0.5f, 0.0f, -10.0f },
	};
	for ( int i = 0; i < 4; ++i )
	{
		b2ShapeDef shape = b2DefaultShapeDef();
		b2Polygon wall = b2MakeOffsetBox( walls[i][0], walls[i][1], ( b2Vec2 ){ walls[i][2], walls[i][3] }, b2Rot_identity );
		b2CreatePolygonShape( drum, &shape, &wall );
	}
	b2Polygon block = b2MakeBox( 0.125f, 0.125f );
	for ( int i = 0; i < 45; ++i )
	{
		for ( int j = 0; j < 45; ++j )
		{
			b2BodyDef boxDef = b2DefaultBodyDef();
			boxDef.type = b2_dynamicBody;
			boxDef.position = ( b2Vec2 ){ -9.0f + 0.4f * (float)j, 1.0f + 0.4f * (float)i };
			b2BodyId body = b2CreateBody( world, &boxDef );
			b2ShapeDef shape = b2DefaultShapeDef();
			b2CreatePolygonShape( body, &shape, &block );
			remember( bodies, body );
		}
	}
	return world;
}

// No gravity; a box 8 m across (density 8) at 40 m/s along x into 120 x 80 sleeping boxes
// 0.4 m across, side by side, starting 50 m ahead of it.
static b2WorldId smash( Bodies* bodies )
{
	b2WorldId world = new_world( ( b2Vec2 ){ 0.0f, 0.0f } );
	b2BodyDef def = b2DefaultBodyDef();
	def.type = b2_dynamicBody;
	def.position = ( b2Vec2 ){ -20.0f, 0.0f };
	def.linearVelocity = ( b2Vec2 ){ 40.0f, 0.0f };
	b2BodyId smasher = b2CreateBody( world, &def );
	b2ShapeDef heavy = b2DefaultShapeDef();
	heavy.density = 8.0f;
	b2Polygon big = b2MakeBox( 4.0f, 4.0f );
	b2CreatePolygonShape( smasher, &heavy, &big );
	remember( bodies, smasher );
	int columns = 120, rows = 80;
	float size = 0.4f;
	b2Polygon block = b2MakeBox( 0.5f * size, 0.5f * size );
	for ( int i = 0; i < columns; ++i )
	{
		for ( int j = 0; j < rows; ++j )
		{
			b2BodyDef boxDef = b2DefaultBodyDef();
			boxDef.type = b2_dynamicBody;
			boxDef.position = ( b2Vec2 ){ 30.0f + size * (float)i, ( (float)j - 0.5f * (float)rows ) * size };
			boxDef.isAwake = false;
			b2BodyId body = b2CreateBody( world, &boxDef );
			b2ShapeDef shape = b2DefaultShapeDef();
			b2CreatePolygonShape( body, &shape, &block );
			remember( bodies, body );
		}
	}
	return world;
}

typedef struct Scene
{
	const char* name;
	b2WorldId ( *build )( Bodies* );
	int steps;
} Scene;

// The step counts of BENCHMARKS in benchmarks.rs.
static const Scene SCENES[] = {
	{ "large_pyramid", large_pyramid, 500 },
	{ "many_pyramids", many_pyramids, 200 },
	{ "tumbler", tumbler, 750 },
	{ "smash", smash, 300 },
};
#define SCENE_COUNT ( (int)( sizeof( SCENES ) / sizeof( SCENES[0] ) ) )

static int compare_doubles( const void* a, const void* b )
{
	double x = *(const double*)a, y = *(const double*)b;
	return ( x > y ) - ( x < y );
}

// The element at round((n - 1) p) of the sorted values, as `world_steps` picks it.
static double percentile( const double* sorted, int n, double p )
{
	return sorted[(int)round( (double)( n - 1 ) * p )];
}

static double median_sorted( double* values, int n )
{
	qsort( values, (size_t)n, sizeof( double ), compare_doubles );
	return percentile( values, n, 0.5 );
}

static void run( const Scene* scene, int steps, bool noRecycle )
{
	Bodies bodies = { 0 };
	b2WorldId world = scene->build( &bodies );
	if ( noRecycle )
	{
		b2World_SetContactRecycleDistance( world, 0.0f );
	}
	int awakeAtStart = b2World_GetAwakeBodyCount( world );
	double* times = malloc( (size_t)steps * sizeof( double ) );
	double* stage[4];
	for ( int s = 0; s < 4; ++s )
	{
		stage[s] = malloc( (size_t)steps * sizeof( double ) );
	}
	if ( times == NULL || stage[0] == NULL || stage[1] == NULL || stage[2] == NULL || stage[3] == NULL )
	{
		fprintf( stderr, "out of memory\n" );
		exit( 1 );
	}
	for ( int i = 0; i < steps; ++i )
	{
		struct timespec start, end;
		clock_gettime( CLOCK_MONOTONIC, &start );
		b2World_Step( world, STEP_DT, SUBSTEPS );
		clock_gettime( CLOCK_MONOTONIC, &end );
		times[i] = (double)( end.tv_sec - start.tv_sec ) * 1e3 + (double)( end.tv_nsec - start.tv_nsec ) * 1e-6;
		b2Profile profile = b2World_GetProfile( world );
		stage[0][i] = profile.pairs;
		stage[1][i] = profile.collide;
		stage[2][i] = profile.solve;
		stage[3][i] = profile.refit;
	}
	double mean = 0.0;
	for ( int i = 0; i < steps; ++i )
	{
		mean += times[i];
	}
	mean /= (double)steps;
	qsort( times, (size_t)steps, sizeof( double ), compare_doubles );
	double stages[4];
	for ( int s = 0; s < 4; ++s )
	{
		stages[s] = median_sorted( stage[s], steps );
	}
	printf( "%-16s %6d %10.3f %8.3f %8.3f | %5.2f %7.2f %6.2f %6.2f\n", scene->name, steps, percentile( times, steps, 0.5 ),
			percentile( times, steps, 0.95 ), mean, stages[0], stages[1], stages[2], stages[3] );

	// Sanity: a broken scene shows here (a pyramid that fell apart, boxes that never woke).
	double sumX = 0.0, sumY = 0.0;
	for ( int i = 0; i < bodies.count; ++i )
	{
		b2Vec2 p = b2Body_GetPosition( bodies.ids[i] );
		sumX += p.x;
		sumY += p.y;
	}
	b2Vec2 last = b2Body_GetPosition( bodies.ids[bodies.count - 1] );
	float lastAngle = b2Rot_GetAngle( b2Body_GetRotation( bodies.ids[bodies.count - 1] ) );
	b2Counters counters = b2World_GetCounters( world );
	printf( "  sanity: last body (%.4f, %.4f) angle %.4f; sum of %d positions (%.3f, %.3f); awake %d at start, %d at "
			"end; %d contacts, %d of them recycled in the last step\n",
			last.x, last.y, lastAngle, bodies.count, sumX, sumY, awakeAtStart, b2World_GetAwakeBodyCount( world ),
			counters.contactCount, counters.recycledContactCount );

	b2DestroyWorld( world );
	free( bodies.ids );
	free( times );
	for ( int s = 0; s < 4; ++s )
	{
		free( stage[s] );
	}
}

int main( int argc, char** argv )
{
	int stepsOverride = 0;
	bool noRecycle = false;
	const char* names[SCENE_COUNT];
	int nameCount = 0;
	for ( int i = 1; i < argc; ++i )
	{
		if ( strcmp( argv[i], "--steps" ) == 0 )
		{
			stepsOverride = i + 1 < argc ? atoi( argv[i + 1] ) : 0;
			if ( stepsOverride <= 0 )
			{
				fprintf( stderr, "--steps needs a positive whole number\n" );
				return 2;
			}
			++i;
			continue;
		}
		if ( strcmp( argv[i], "--no-recycle" ) == 0 )
		{
			noRecycle = true;
			continue;
		}
		int known = 0;
		for ( int s = 0; s < SCENE_COUNT; ++s )
		{
			known |= strcmp( argv[i], SCENES[s].name ) == 0;
		}
		if ( !known || nameCount == SCENE_COUNT )
		{
			fprintf( stderr, "unknown scene \"%s\"; the scenes are large_pyramid, many_pyramids, tumbler, smash\n", argv[i] );
			return 2;
		}
		names[nameCount++] = argv[i];
	}
	b2Version version = b2GetVersion();
	printf( "Box2D %d.%d.%d, one worker, no task system; 60 Hz, %d sub-steps; contact recycling %s\n", version.major, version.minor,
			version.revision, SUBSTEPS, noRecycle ? "off (--no-recycle)" : "on (default)" );
	printf( "scene            steps  median ms   p95 ms  mean ms | pairs collide  solve  refit\n" );
	for ( int s = 0; s < SCENE_COUNT; ++s )
	{
		int wanted = nameCount == 0;
		for ( int n = 0; n < nameCount; ++n )
		{
			wanted |= strcmp( names[n], SCENES[s].name ) == 0;
		}
		if ( wanted )
		{
			run( &SCENES[s], stepsOverride > 0 ? stepsOverride : SCENES[s].steps, noRecycle );
		}
	}
	return 0;
}
